import Foundation

extension Statement {
    /// The seconds since the running execution started, for the integrations.
    var instrumentedDuration: Double {
        guard instrumentedStart != 0 else { return 0 }
        return Double(DispatchTime.now().uptimeNanoseconds &- instrumentedStart) / 1e9
    }

    /// The first keyword of the SQL, uppercased (`SELECT`, `INSERT`...): the
    /// operation of tracing conventions.
    var operationName: String {
        let keyword = sql.prefix { $0.isLetter }
        return keyword.isEmpty ? "SQL" : keyword.uppercased()
    }
}
