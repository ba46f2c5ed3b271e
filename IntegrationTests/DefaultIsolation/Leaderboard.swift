// An app's model with live queries (issue 50), as a module compiled with
// Swift 6.2's default main-actor isolation (`-default-isolation MainActor`,
// SwiftPM's `.defaultIsolation(MainActor.self)`) compiles it: every
// declaration below is implicitly `@MainActor`. `check.sh` type-checks this
// file against the debug build of Strata, warnings as errors.

import Observation
import Strata

struct Player: Codable, Sendable, FetchableRecord, PersistableRecord {
    var name: String
    var score: Int
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable
final class Leaderboard {
    @ObservationIgnored @LiveQuery var best: [Player]
    @ObservationIgnored @LiveQuery var count: Int
    @ObservationIgnored @LiveQuery var names: [String]

    init(database: any DatabaseReader) {
        _best = LiveQuery(wrappedValue: [], Player.order(Column("score").desc).limit(3), in: database)
        _count = LiveQuery(wrappedValue: 0, { db in try Player.fetchCount(db) }, in: database)
        _names = LiveQuery(
            wrappedValue: [],
            ValueObservation.tracking { db in try String.fetchAll(db, sql: "SELECT name FROM player") }
                .removeDuplicates(),
            in: database, scheduling: .task)
    }

    var summary: String {
        "\(count) players, best: \(best.first?.name ?? "none")"
    }

    func search(_ prefix: String) {
        $best.track(Player.filter(Column("name").like("\(prefix)%")).order(Column("score").desc))
    }

    func stop() {
        $best.pause()
        $count.pause()
    }
}
