import Foundation
import Testing

/// The README's quick start shows the program that `swift run strata-demo`
/// runs: these tests fail when `README.md` and
/// `Sources/strata-demo/main.swift` drift apart.
///
/// The README holds the program in the first ` ```swift ` block after the
/// line that starts with ``ReadmeDemoTests/marker``. The block must be the
/// file exactly, character for character: its lines are the file's lines,
/// and the closing fence comes right after the file's final newline. Nothing
/// is normalized, so a copy that only differs in indentation or trailing
/// spaces fails too.
struct ReadmeDemoTests {
    /// The HTML comment (invisible once rendered) that announces the block.
    static let marker = "<!-- The block below is Sources/strata-demo/main.swift"

    /// The repository root: this file is `Tests/StrataTests/API/ReadmeDemoTests.swift`.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // API
        .deletingLastPathComponent()  // StrataTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static func read(_ relativePath: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
    }

    /// The content of the first `swift` block after the marker, each line
    /// followed by a newline, or nil when the README has no such block.
    static func demoBlock(in readme: String) -> String? {
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        guard let markerIndex = lines.firstIndex(where: { $0.hasPrefix(marker) }),
            let open = lines[markerIndex...].firstIndex(where: { $0 == "```swift" }),
            let close = lines[(open + 1)...].firstIndex(where: { $0 == "```" })
        else { return nil }
        return lines[(open + 1)..<close].map { "\($0)\n" }.joined()
    }

    @Test func readmeShowsTheDemoSourceExactly() throws {
        let readme = try Self.read("README.md")
        let source = try Self.read("Sources/strata-demo/main.swift")
        let block = try #require(
            Self.demoBlock(in: readme),
            "README.md has no ```swift block after a line starting with \(Self.marker)")
        if block != source {
            let blockLines = block.split(separator: "\n", omittingEmptySubsequences: false)
            let sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false)
            let common = min(blockLines.count, sourceLines.count)
            let line = (0..<common).first { blockLines[$0] != sourceLines[$0] } ?? common
            Issue.record(
                """
                README.md's demo block differs from Sources/strata-demo/main.swift at line \(line + 1) of the file:
                README: \(line < blockLines.count ? String(blockLines[line]) : "(end of block)")
                source: \(line < sourceLines.count ? String(sourceLines[line]) : "(end of file)")
                Copy the file into the README (or the block into the file).
                """)
        }
    }

    /// The check above finds its block: a marker followed by a block is found,
    /// a missing marker or an unclosed block is not.
    @Test func blockExtraction() {
        let readme = """
            text
            \(Self.marker) -->
            ```swift
            let a = 1

            print(a)
            ```
            ```swift
            other
            ```
            """
        #expect(Self.demoBlock(in: readme) == "let a = 1\n\nprint(a)\n")
        #expect(Self.demoBlock(in: "```swift\nlet a = 1\n```") == nil)
        #expect(Self.demoBlock(in: "\(Self.marker) -->\n```swift\nlet a = 1\n") == nil)
    }
}
