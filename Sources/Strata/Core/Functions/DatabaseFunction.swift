import Foundation

/// A custom SQL function or aggregate, registered on a connection with
/// ``Database/add(function:)``.
///
/// ```swift
/// let succ = DatabaseFunction("succ", argumentCount: 1, pure: true) { dbValues in
///     guard let int = Int.fromDatabaseValue(dbValues[0]) else { return nil }
///     return int + 1
/// }
/// db.add(function: succ)
/// try Int.fetchOne(db, sql: "SELECT succ(1)")  // 2
/// ```
public final class DatabaseFunction: Identifiable, Sendable {
    /// Identifies a function by name (case-insensitive) and argument count.
    public struct ID: Hashable, Sendable {
        let name: String
        let argumentCount: Int?

        init(name: String, argumentCount: Int?) {
            self.name = name.lowercased()
            self.argumentCount = argumentCount
        }
    }

    enum Kind: Sendable {
        case function(@Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?)
        case aggregate(@Sendable () -> any DatabaseAggregate)
    }

    /// The name of the function, to use in raw SQL.
    public var name: String { _name }
    private let _name: String

    /// The identifier of the function (name and argument count).
    public let id: ID

    let argumentCount: Int?
    let isPure: Bool
    let kind: Kind

    /// Creates a function.
    ///
    /// - Parameters:
    ///   - name: the name of the function.
    ///   - argumentCount: the number of arguments, or nil for a variadic function.
    ///   - pure: whether the function always gives the same result for the
    ///     same arguments (SQLite can then optimize it).
    ///   - function: receives the arguments and returns the result (nil is
    ///     NULL). A thrown error fails the statement.
    public convenience init(
        _ name: String,
        argumentCount: Int? = nil,
        pure: Bool = false,
        function: @escaping @Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?
    ) {
        self.init(name: name, argumentCount: argumentCount, pure: pure, kind: .function(function))
    }

    /// Creates an aggregate function; each group gets a new `Aggregate`.
    public init<Aggregate: DatabaseAggregate>(
        _ name: String,
        argumentCount: Int? = nil,
        pure: Bool = false,
        aggregate: Aggregate.Type
    ) {
        self._name = name
        self.id = ID(name: name, argumentCount: argumentCount)
        self.argumentCount = argumentCount
        self.isPure = pure
        self.kind = .aggregate({ Aggregate() })
    }

    private init(name: String, argumentCount: Int?, pure: Bool, kind: Kind) {
        self._name = name
        self.id = ID(name: name, argumentCount: argumentCount)
        self.argumentCount = argumentCount
        self.isPure = pure
        self.kind = kind
    }

    /// An SQL expression that calls the function: `f(Column("name"))`.
    public func callAsFunction(_ arguments: any SQLExpressible...) -> SQLExpression {
        SQLExpression(impl: .function(name, arguments.map(\.sqlExpression)))
    }
}

/// A custom aggregate: a new instance accumulates the values of each group.
///
/// ```swift
/// struct MySum: DatabaseAggregate {
///     var sum: Int = 0
///     mutating func step(_ dbValues: [DatabaseValue]) {
///         if let int = Int.fromDatabaseValue(dbValues[0]) { sum += int }
///     }
///     func finalize() -> (any DatabaseValueConvertible)? { sum }
/// }
/// db.add(function: DatabaseFunction("mysum", argumentCount: 1, aggregate: MySum.self))
/// ```
public protocol DatabaseAggregate: SendableMetatype {
    /// Creates an aggregate for a new group.
    init()

    /// Accumulates the arguments of one row. A thrown error fails the statement.
    mutating func step(_ dbValues: [DatabaseValue]) throws

    /// Returns the result of the group (nil is NULL).
    func finalize() throws -> (any DatabaseValueConvertible)?
}

// MARK: - Built-in functions

extension DatabaseFunction {
    /// `String.capitalized`, as the SQL function `swiftCapitalizedString`.
    public static let capitalize = DatabaseFunction("swiftCapitalizedString", argumentCount: 1, pure: true) {
        mapString($0) { $0.capitalized }
    }
    /// `String.lowercased()`, as the SQL function `swiftLowercaseString`.
    public static let lowercase = DatabaseFunction("swiftLowercaseString", argumentCount: 1, pure: true) {
        mapString($0) { $0.lowercased() }
    }
    /// `String.uppercased()`, as the SQL function `swiftUppercaseString`.
    public static let uppercase = DatabaseFunction("swiftUppercaseString", argumentCount: 1, pure: true) {
        mapString($0) { $0.uppercased() }
    }
    /// `String.localizedCapitalized`, as `swiftLocalizedCapitalizedString`.
    public static let localizedCapitalize = DatabaseFunction(
        "swiftLocalizedCapitalizedString", argumentCount: 1, pure: true
    ) {
        mapString($0) { $0.capitalized(with: Locale.current) }
    }
    /// `String.localizedLowercase`, as `swiftLocalizedLowercaseString`.
    public static let localizedLowercase = DatabaseFunction(
        "swiftLocalizedLowercaseString", argumentCount: 1, pure: true
    ) {
        mapString($0) { $0.lowercased(with: Locale.current) }
    }
    /// `String.localizedUppercase`, as `swiftLocalizedUppercaseString`.
    public static let localizedUppercase = DatabaseFunction(
        "swiftLocalizedUppercaseString", argumentCount: 1, pure: true
    ) {
        mapString($0) { $0.uppercased(with: Locale.current) }
    }

    /// Functions registered on every connection.
    static let builtIn: [DatabaseFunction] = [
        .capitalize, .lowercase, .uppercase, .localizedCapitalize, .localizedLowercase, .localizedUppercase,
    ]

    private static func mapString(
        _ dbValues: [DatabaseValue], _ transform: (String) -> String
    ) -> (any DatabaseValueConvertible)? {
        guard let string = String.fromDatabaseValue(dbValues[0]) else { return nil }
        return transform(string)
    }
}

// MARK: - Registration

extension Database {
    /// Registers a function or aggregate on this connection (to register it on
    /// all connections, use ``Configuration/prepareDatabase(_:)``).
    /// Wraps `sqlite3_create_function_v2`.
    public func add(function: DatabaseFunction) {
        functions[function.id] = function
        let box = Unmanaged.passRetained(FunctionBox(function)).toOpaque()
        var flags = SQLITE_UTF8
        if function.isPure { flags |= SQLITE_DETERMINISTIC }
        let nArg = CInt(function.argumentCount ?? -1)
        let code: CInt
        switch function.kind {
        case .function:
            code = sqlite3_create_function_v2(
                sqliteConnection, function.name, nArg, flags, box,
                { context, argc, argv in
                    let box = Unmanaged<FunctionBox>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
                    guard case .function(let body) = box.function.kind else { return }
                    do {
                        let result = try body(databaseValues(argc, argv))
                        setResult(context, result)
                    } catch {
                        setError(context, error)
                    }
                }, nil, nil,
                { box in Unmanaged<FunctionBox>.fromOpaque(box!).release() })
        case .aggregate:
            code = sqlite3_create_function_v2(
                sqliteConnection, function.name, nArg, flags, box, nil,
                { context, argc, argv in
                    guard let state = aggregateState(context, create: true) else {
                        sqlite3_result_error_nomem(context)
                        return
                    }
                    guard state.error == nil else { return }
                    do {
                        try state.aggregate.step(databaseValues(argc, argv))
                    } catch {
                        state.error = error
                    }
                },
                { context in
                    let state = aggregateState(context, create: true)
                    defer { releaseAggregateState(context) }
                    guard let state else {
                        sqlite3_result_error_nomem(context)
                        return
                    }
                    if let error = state.error {
                        setError(context, error)
                        return
                    }
                    do {
                        setResult(context, try state.aggregate.finalize())
                    } catch {
                        setError(context, error)
                    }
                },
                { box in Unmanaged<FunctionBox>.fromOpaque(box!).release() })
        }
        if code != SQLITE_OK {
            fatalError("Could not add function \(function.name): \(DatabaseError.lastError(of: sqliteConnection))")
        }
    }

    /// Removes a function from this connection.
    public func remove(function: DatabaseFunction) {
        functions[function.id] = nil
        sqlite3_create_function_v2(
            sqliteConnection, function.name, CInt(function.argumentCount ?? -1), SQLITE_UTF8, nil, nil, nil, nil, nil)
    }
}

/// Retains a function for SQLite.
private final class FunctionBox {
    let function: DatabaseFunction
    init(_ function: DatabaseFunction) { self.function = function }
}

/// The state of one aggregate group.
private final class AggregateState {
    var aggregate: any DatabaseAggregate
    var error: (any Error)?
    init(_ aggregate: any DatabaseAggregate) { self.aggregate = aggregate }
}

private func databaseValues(_ argc: CInt, _ argv: UnsafeMutablePointer<OpaquePointer?>?) -> [DatabaseValue] {
    (0..<Int(argc)).map { DatabaseValue(sqliteValue: argv![$0]!) }
}

private func aggregateState(_ context: OpaquePointer?, create: Bool) -> AggregateState? {
    let size = create ? CInt(MemoryLayout<UnsafeMutableRawPointer?>.size) : 0
    guard let slot = sqlite3_aggregate_context(context, size)?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    else { return nil }
    if let existing = slot.pointee {
        return Unmanaged<AggregateState>.fromOpaque(existing).takeUnretainedValue()
    }
    let box = Unmanaged<FunctionBox>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
    guard case .aggregate(let make) = box.function.kind else { return nil }
    let state = AggregateState(make())
    slot.pointee = Unmanaged.passRetained(state).toOpaque()
    return state
}

private func releaseAggregateState(_ context: OpaquePointer?) {
    guard let slot = sqlite3_aggregate_context(context, 0)?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self),
        let existing = slot.pointee
    else { return }
    Unmanaged<AggregateState>.fromOpaque(existing).release()
    slot.pointee = nil
}

private func setResult(_ context: OpaquePointer?, _ result: (any DatabaseValueConvertible)?) {
    switch result?.databaseValue.storage ?? .null {
    case .null:
        sqlite3_result_null(context)
    case .int64(let v):
        sqlite3_result_int64(context, v)
    case .double(let v):
        sqlite3_result_double(context, v)
    case .string(var v):
        v.withUTF8 { buffer in
            sqlite3_result_text(
                context,
                UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer<UInt8>(bitPattern: 1)!)
                    .assumingMemoryBound(to: CChar.self),
                CInt(buffer.count), SQLITE_TRANSIENT)
        }
    case .blob(let v):
        v.withUnsafeBytes { buffer in
            sqlite3_result_blob(
                context, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, CInt(buffer.count),
                SQLITE_TRANSIENT)
        }
    }
}

private func setError(_ context: OpaquePointer?, _ error: any Error) {
    if let error = error as? DatabaseError {
        sqlite3_result_error(context, error.messageOrCodeText ?? "", -1)
        sqlite3_result_error_code(context, error.extendedResultCode.rawValue)
    } else {
        sqlite3_result_error(context, "\(error)", -1)
    }
}
