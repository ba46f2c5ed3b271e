import Foundation
import Testing

/// The samples of the DocC articles and of the README are code that runs:
/// every ` ```swift ` block of `Sources/Strata/Strata.docc/<Article>.md`
/// must appear in `Tests/StrataTests/API/<Article>GuideTests.swift` (the
/// README's in `ReadmeGuideTests.swift`, the record macro's in
/// `Tests/StrataMacrosTests/DatabaseRecordTests.swift`), whose tests run
/// it, or at least compile it.
///
/// A block matches a run of consecutive lines of the test file once both have
/// lost their common leading indentation: the sample can sit inside a test
/// function or a suite type, but no character of it may differ. The block's
/// leading `import` lines are not looked for: the test file imports at its
/// top. A block that cannot be code of a test (a `Package.swift` excerpt)
/// follows a line `<!-- untested: why -->`, and the README's demo block is
/// `ReadmeDemoTests`'s. A sample that the tests do not hold makes this test
/// fail, so an article cannot drift from the code.
struct ArticleSampleTests {
    /// The articles whose samples are tests, by file name without `.md`:
    /// every article with a ` ```swift ` block (``everyArticleWithSamplesIsListed()``).
    static let articles = [
        "Records", "Associations", "Migrations", "Observation", "QueryInterface", "FullTextSearch", "JSON",
        "DiagnosingADatabase", "SyncingWithChangesets", "GettingStarted", "Strata", "ChoosingAQueueOrAPool",
        "Servers", "SharingADatabaseBetweenProcesses", "ReadReplicas", "RecordMacro", "LiveQueries",
        "VaporAndFluent",
    ]

    /// Where the samples of a document are tested.
    static func testFile(of article: String) -> String {
        switch article {
        case "README": "Tests/StrataTests/API/ReadmeGuideTests.swift"
        case "RecordMacro": "Tests/StrataMacrosTests/DatabaseRecordTests.swift"
        case "VaporAndFluent": "Tests/StrataFluentTests/VaporAndFluentGuideTests.swift"
        default: "Tests/StrataTests/API/\(article)GuideTests.swift"
        }
    }

    /// The lines of each ` ```swift ` block of a Markdown text, in order,
    /// without the blocks that follow an `<!-- untested: ... -->` line or the
    /// README's demo marker, and without their leading `import` lines.
    static func swiftBlocks(in markdown: String) -> [[Substring]] {
        var blocks: [[Substring]] = []
        var current: [Substring]?
        var skipsNext = false
        var skipping = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil {
                if line == "```swift" {
                    current = []
                    skipping = skipsNext
                    skipsNext = false
                } else if line.hasPrefix("<!-- untested:") || line.hasPrefix(ReadmeDemoTests.marker) {
                    skipsNext = true
                } else if !line.allSatisfy(\.isWhitespace) {
                    skipsNext = false
                }
            } else if line == "```" {
                var block = current![...]
                while let first = block.first,
                    first.hasPrefix("import ") || (first.isEmpty && block.count < current!.count)
                {
                    block = block.dropFirst()
                }
                if !skipping { blocks.append(Array(block)) }
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

    @Test(arguments: articles + ["README"])
    func articleSamplesAreTested(_ article: String) throws {
        let markdown = try ReadmeDemoTests.read(
            article == "README" ? "README.md" : "Sources/Strata/Strata.docc/\(article).md")
        let tests = try ReadmeDemoTests.read(Self.testFile(of: article))
        let sourceLines = tests.split(separator: "\n", omittingEmptySubsequences: false)
        let blocks = Self.swiftBlocks(in: markdown)
        #expect(!blocks.isEmpty, "\(article).md has no ```swift block")
        for block in blocks where !Self.source(sourceLines, contains: block) {
            Issue.record(
                """
                A sample of \(article).md is not in \(Self.testFile(of: article)) (up to indentation):
                \(block.joined(separator: "\n"))
                Copy the tested code into the article, or the sample into a test.
                """)
        }
    }

    /// Every article with a ` ```swift ` block that is not marked untested
    /// is checked.
    @Test func everyArticleWithSamplesIsListed() throws {
        let folder = ReadmeDemoTests.root.appendingPathComponent("Sources/Strata/Strata.docc")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }
        for name in names {
            let article = String(name.dropLast(3))
            let markdown = try ReadmeDemoTests.read("Sources/Strata/Strata.docc/\(name)")
            if !Self.swiftBlocks(in: markdown).isEmpty {
                #expect(
                    Self.articles.contains(article), "\(name) has Swift samples: list it in ArticleSampleTests.articles"
                )
            }
        }
    }

    /// Untested blocks and the demo block are skipped, and imports dropped.
    @Test func skippedBlocksAndImports() {
        let markdown = """
            <!-- untested: a manifest -->
            ```swift
            .package(path: "x")
            ```
            \(ReadmeDemoTests.marker) -->
            ```swift
            print("demo")
            ```
            ```swift
            import Strata

            let a = 1
            ```
            """
        #expect(Self.swiftBlocks(in: markdown) == [["let a = 1"]])
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
