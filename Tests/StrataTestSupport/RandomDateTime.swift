/// The fields of a random date and time, for the tests that compare date
/// parsers on generated strings: years 0 to 9999, days 1 to `maximumDay`
/// (28 keeps every date valid, 31 lets the parsers meet impossible ones).
package struct RandomDateTime {
    package var year: Int
    package var month: Int
    package var day: Int
    package var hour: Int
    package var minute: Int
    package var second: Int

    /// Draws each field in turn from `generator`.
    package init(maximumDay: Int, using generator: inout some RandomNumberGenerator) {
        year = Int.random(in: 0...9999, using: &generator)
        month = Int.random(in: 1...12, using: &generator)
        day = Int.random(in: 1...maximumDay, using: &generator)
        hour = Int.random(in: 0...23, using: &generator)
        minute = Int.random(in: 0...59, using: &generator)
        second = Int.random(in: 0...59, using: &generator)
    }
}
