/// Collects the statement arguments while SQL is generated.
final class SQLGenerationContext {
    let db: Database
    private(set) var arguments = StatementArguments()

    init(_ db: Database) {
        self.db = db
    }

    /// Appends a positional argument and returns its placeholder.
    func append(argument: DatabaseValue) -> String {
        arguments.values.append(argument)
        return "?"
    }

    /// Appends arguments; returns false when a named argument conflicts.
    func append(arguments other: StatementArguments) -> Bool {
        arguments.append(contentsOf: other).isEmpty
    }
}
