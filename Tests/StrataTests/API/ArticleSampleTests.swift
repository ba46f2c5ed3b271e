import Foundation
import Testing

/// The samples of the DocC articles are code that runs: every ` ```swift `
/// block of `Sources/Strata/Strata.docc/<Article>.md` must appear in
/// `Tests/StrataTests/API/<Article>GuideTests.swift`, whose tests run it.
///
/// A block matches a run of consecutive lines of the test file once both have
/// lost their common leading indentation: the sample can sit inside a test
/// function or a suite type, but no character of it may differ. A sample that
/// the tests do not run makes this test fail, so an article cannot drift from
/// the code.
struct ArticleSampleTests {
    /// The articles whose samples are tests, by file name without `.md`.
    static let articles = [
        "Records", "Associations", "Migrations", "Observation", "QueryInterface", "FullTextSearch", "JSON",
        "DiagnosingADatabase", "SyncingWithChangesets",
    ]

    /// The lines of each ` ```swift ` block of a Markdown text, in order.
    static func swiftBlocks(in markdown: String) -> [[Substring]] {
        var blocks: [[Substring]] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil {
                if line == "```swift" { current = [] }
            } else if line == "```" {
                blocks.append(current!)
                current = nil
            } else {
                current!.append(line)
            }
        }
        return blocks
    }

    /// The lines without the indentation they all share (blank lines, which
    /// share any, are left empty).
    static func dedented(_ lines: some Collection<Substring>) -> [Substring] {
        let indents = lines.filter { !$0.allSatisfy(\.isWhitespace) }
            .map { $0.prefix(while: { $0 == " " }).count }
        let common = indents.min() ?? 0
        return lines.map { $0.allSatisfy(\.isWhitespace) ? "" : $0.dropFirst(common) }
    }

    /// Whether the block is a run of consecutive lines of the source, up to
    /// indentation.
    static func source(_ source: [Substring], contains block: [Substring]) -> Bool {
        let wanted = dedented(block)
        guard !wanted.isEmpty, wanted.count <= source.count else { return false }
        return (0...(source.count - wanted.count)).contains { start in
            dedented(source[start..<(start + wanted.count)]) == wanted
        }
    }

    @Test(arguments: articles)
    func articleSamplesAreTested(_ article: String) throws {
        let markdown = try ReadmeDemoTests.read("Sources/Strata/Strata.docc/\(article).md")
        let tests = try ReadmeDemoTests.read("Tests/StrataTests/API/\(article)GuideTests.swift")
        let sourceLines = tests.split(separator: "\n", omittingEmptySubsequences: false)
        let blocks = Self.swiftBlocks(in: markdown)
        #expect(!blocks.isEmpty, "\(article).md has no ```swift block")
        for block in blocks where !Self.source(sourceLines, contains: block) {
            Issue.record(
                """
                A sample of \(article).md is not in \(article)GuideTests.swift (up to indentation):
                \(block.joined(separator: "\n"))
                Copy the tested code into the article, or the sample into a test.
                """)
        }
    }

    /// The matcher finds an indented run and rejects a changed line.
    @Test func matching() {
        let markdown = "text\n```swift\nlet a = 1\n\nprint(a)\n```\n```sh\nls\n```\n"
        let blocks = Self.swiftBlocks(in: markdown)
        #expect(blocks == [["let a = 1", "", "print(a)"]])
        let source: [Substring] = ["func f() {", "    let a = 1", "", "    print(a)", "}"]
        #expect(Self.source(source, contains: blocks[0]))
        #expect(!Self.source(source, contains: ["let a = 2"]))
        #expect(!Self.source(source, contains: ["let a = 1", "print(a)"]))
    }
}
