import Foundation
import Strata
import StrataTestSupport
import Testing

// The text of the JSON dump format.

struct JSONDumpTextTests {
    @Test("B45: the prettyPrinted JSON dump writes \"key\":value without a space")
    func prettyPrintedKeysHaveNoSpace() throws {
        let dbQueue = try DatabaseQueue()
        let encoder = JSONDumpFormat.defaultEncoder
        encoder.outputFormatting.insert(.prettyPrinted)
        let stream = TestStream()
        try dbQueue.dumpSQL("SELECT 1 AS id, 'foo' AS name", format: .json(encoder: encoder), to: stream)
        #expect(
            stream.output == """
                [
                  {
                    "id":1,
                    "name":"foo"
                  }
                ]

                """)
    }
}
