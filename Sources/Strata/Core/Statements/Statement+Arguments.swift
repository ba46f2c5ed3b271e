// The arguments of a `Statement`: validating them against its parameters,
// binding them (positional, named, and literals of plain values read in
// place), and consuming them across the statements of a multi-statement
// execution. The statement itself is in Statement.swift.

import Foundation

extension Statement {
    /// The bound arguments. Setting invalid arguments is a programmer error:
    /// use ``setArguments(_:)`` for untrusted ones.
    public var arguments: StatementArguments {
        get { _arguments }
        set {
            do {
                try setArguments(newValue)
            } catch {
                fatalError("\(error)")
            }
        }
    }

    /// Throws when the arguments do not fit the statement's parameters.
    public func validateArguments(_ arguments: StatementArguments) throws {
        _ = try bindings(for: arguments, allowingRemainingValues: false, bind: false)
    }

    /// Validates and binds arguments; text and blobs are copied.
    public func setArguments(_ arguments: StatementArguments) throws {
        try takeArguments(arguments)
    }

    /// `setArguments(_:)`, taking the arguments: the statement keeps them
    /// without retaining them again.
    func takeArguments(_ arguments: consuming StatementArguments) throws {
        if let code = bindPositionalLiteral(arguments) {
            if code != SQLITE_OK { try check(code, arguments) }
        } else {
            _ = try bindings(for: arguments, allowingRemainingValues: false, bind: true)
        }
        // The previous arguments are released here: usually the last
        // reference to the literal of the previous execution.
        _arguments.destroyUnsharedLiterals()
        _arguments = arguments
        bindingsWereCleared = false
    }

    /// Binds arguments without validating them: missing values are NULL, extra
    /// values are ignored.
    public func setUncheckedArguments(_ arguments: StatementArguments) {
        // A literal with a value for each positional parameter, the common
        // case, is bound in place, as `execute(arguments:)` binds it: the
        // loop below would first copy its values into an array.
        if bindPositionalLiteral(arguments) != nil {
            _arguments = arguments
            bindingsWereCleared = false
            isResetSinceBinding = true
            return
        }
        _arguments = arguments
        bindingsWereCleared = false
        reset()
        isResetSinceBinding = true
        var positional = arguments.values.makeIterator()
        for (i, name) in parameterNames.enumerated() {
            let value: DatabaseValue
            if let name, let named = arguments.namedValue(name) {
                value = named
            } else {
                value = positional.next() ?? .null
            }
            _ = value.bind(to: sqliteStatement, at: CInt(i + 1))
        }
    }

    /// Consumes the arguments for this statement (multi-statement execution).
    func consumeArguments(_ arguments: inout StatementArguments) throws {
        let consumed = try bindings(for: arguments, allowingRemainingValues: true, bind: true)
        if consumed == arguments.valueCount {
            // The common case (a single statement): the arguments are kept as
            // given, without converting a literal.
            _arguments = arguments
            if consumed > 0 { arguments.values = [] }
            return
        }
        _arguments = StatementArguments(
            values: Array(arguments.values.prefix(consumed)), namedPairs: arguments.namedPairs)
        arguments.values.removeFirst(consumed)
    }

    /// Resets the statement and binds the arguments of most executions: a
    /// literal of plain values (see `PlainValues`), one for each parameter
    /// of a statement without named parameters. Returns the first SQLite
    /// result code that is not SQLITE_OK, or SQLITE_OK; nil, without
    /// resetting the statement, for other arguments, which
    /// `bindings(for:allowingRemainingValues:bind:)` binds or reports.
    ///
    /// Inlined, apart from `bindings`: with its other cases and its errors,
    /// that function is large, and an insert then ran hundreds of bytes of
    /// code more than it needs, spread over many lines of the processor's
    /// instruction cache, where SQLite's own code hardly fits (issue 34).
    @inline(__always)
    private func bindPositionalLiteral(_ arguments: borrowing StatementArguments) -> CInt? {
        guard !hasNamedParameters else { return nil }
        let count = Int(parameterCount)
        let sqliteStatement = self.sqliteStatement
        let code = arguments.withLiteralValues { literal -> CInt? in
            guard literal.elements.count == count else { return nil }
            resetInline()
            return literal.bind(to: sqliteStatement, count: count)
        }
        return code ?? nil
    }

    /// Checks that the arguments fit the parameters, binds them when `bind` is
    /// true, and returns the number of positional values consumed.
    ///
    /// Named parameters take named values, or the next positional value when
    /// no named value matches.
    private func bindings(
        for arguments: StatementArguments,
        allowingRemainingValues: Bool,
        bind: Bool
    ) throws -> Int {
        if bind {
            reset()
        }
        if !hasNamedParameters {
            // Fast path: positional parameters only. The stored count:
            // `parameterNames` would cost a retain and a release of the array.
            let count = Int(parameterCount)
            let sqliteStatement = self.sqliteStatement
            if bind {
                // A literal of plain values, counted and bound in place:
                // `valueCount` copied it, a retain and a release per
                // execution. A wrong count is reported below.
                let literalCode = arguments.withLiteralValues { literal -> CInt? in
                    let valueCount = literal.elements.count
                    guard valueCount == count || (allowingRemainingValues && valueCount > count) else { return nil }
                    return literal.bind(to: sqliteStatement, count: count)
                }
                if let code = literalCode ?? nil {
                    try check(code, arguments)
                    return count
                }
            }
            let valueCount = arguments.valueCount
            if valueCount < count || (!allowingRemainingValues && valueCount > count) {
                throw argumentsError("wrong number of statement arguments: \(valueCount)", arguments)
            }
            if bind {
                // Reads the values in place: subscripting the array copied each one.
                try arguments.values.withUnsafeBufferPointer { buffer in
                    for i in 0..<count {
                        try check(buffer[i].bind(to: sqliteStatement, at: CInt(i + 1)), arguments)
                    }
                }
            }
            return count
        }
        if bind && arguments.valueCount == 0 && allParametersNamed,
            arguments.namedCount >= namedParameterNames.count,
            try bindNamedValuesByScanning(arguments)
        {
            return 0
        }
        let names = parameterNames
        let values = arguments.values
        var consumed = 0
        var missingNames: [String] = []
        for (i, name) in names.enumerated() {
            let value: DatabaseValue
            if let name, let named = arguments.namedValue(name) {
                value = named
            } else if consumed < values.count {
                value = values[consumed]
                consumed += 1
            } else {
                missingNames.append(name ?? "?")
                continue
            }
            if bind {
                try check(value.bind(to: sqliteStatement, at: CInt(i + 1)), arguments)
            }
        }
        if !missingNames.isEmpty {
            if missingNames.allSatisfy({ $0 == "?" }) {
                throw argumentsError("wrong number of statement arguments: \(values.count)", arguments)
            }
            let list = missingNames.filter { $0 != "?" }.joined(separator: ", ")
            throw argumentsError("missing statement argument(s): \(list)", arguments)
        }
        if !allowingRemainingValues && consumed < values.count {
            throw argumentsError("wrong number of statement arguments: \(values.count)", arguments)
        }
        return consumed
    }

    /// Binds named values by looking their keys up among the parameter names:
    /// comparing small strings is cheaper than hashing each parameter name.
    /// Returns false when some parameters are left without a value.
    ///
    /// Values and names are read in place, and each key is first compared to
    /// the parameter after the previous match: literals usually list their
    /// keys in the order of the parameters.
    private func bindNamedValuesByScanning(_ arguments: StatementArguments) throws -> Bool {
        if let bound = try arguments.withLiteralNamedValues({ try bindNamedValuesByScanning($0, arguments) }) {
            return bound
        }
        let names = namedParameterNames
        let count = names.count
        var boundCount = 0
        var hint = 0
        let sqliteStatement = self.sqliteStatement
        try arguments.namedPairs.withUnsafeBufferPointer { pairs in
            for pair in pairs.indices {
                guard let i = Self.parameterIndex(of: pairs[pair].name, in: names, from: hint) else { continue }
                try check(pairs[pair].value.bind(to: sqliteStatement, at: CInt(truncatingIfNeeded: i &+ 1)), arguments)
                boundCount &+= 1
                hint = i &+ 1
            }
        }
        return boundCount == count
    }

    /// `bindNamedValuesByScanning(_:)` for the plain values of a dictionary
    /// literal, read in place.
    private func bindNamedValuesByScanning(
        _ literal: borrowing NamedLiteral, _ arguments: StatementArguments
    ) throws -> Bool {
        let names = namedParameterNames
        let count = names.count
        var boundCount = 0
        var hint = 0
        let sqliteStatement = self.sqliteStatement
        let valueOffset = NamedLiteral.valueOffset
        let layout = ExistentialLayout()
        try literal.elements.withUnsafeBufferPointer { elements in
            guard let start = elements.baseAddress else { return }
            let raw = UnsafeRawPointer(start)
            // Wrapping arithmetic: indexes are bounded by the element and
            // parameter counts, and overflow checks cost a tenth of the loop.
            var element = raw
            for _ in 0..<elements.count {
                defer { element += MemoryLayout<NamedLiteral.Element>.stride }
                let name = element.assumingMemoryBound(to: String.self)
                guard let i = Self.parameterIndex(of: name.pointee, in: names, from: hint) else { continue }
                let code = PlainValues.bind(
                    element + valueOffset, to: sqliteStatement, at: CInt(truncatingIfNeeded: i &+ 1), layout: layout)
                try check(code, arguments)
                boundCount &+= 1
                hint = i &+ 1
            }
        }
        return boundCount == count
    }

    /// The index of the parameter named `name`, searched from `hint` (the
    /// one after the previous match: literals usually follow the order of
    /// the parameters) and around.
    ///
    /// The test of the hint is inlined; the search is not.
    @inline(__always)
    private static func parameterIndex(of name: String, in names: UnsafeBufferPointer<String>, from hint: Int) -> Int? {
        if hint < names.count && names[hint] == name { return hint }
        return searchParameterIndex(of: name, in: names, from: hint)
    }

    @inline(never)
    private static func searchParameterIndex(
        of name: String, in names: UnsafeBufferPointer<String>, from hint: Int
    ) -> Int? {
        let count = names.count
        var i = hint
        for _ in 0..<count {
            if i >= count { i = 0 }
            if names[i] == name { return i }
            i += 1
        }
        return nil
    }

    private func argumentsError(_ message: String, _ arguments: StatementArguments) -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_MISUSE, message: message, sql: sql, arguments: arguments,
            publicStatementArguments: database.configuration.publicStatementArguments)
    }

    @inline(__always)
    private func check(_ code: CInt, _ arguments: StatementArguments) throws {
        if code != SQLITE_OK {
            throw DatabaseError.lastError(
                of: database.sqliteConnection, resultCode: code, sql: sql, arguments: arguments,
                publicStatementArguments: database.configuration.publicStatementArguments)
        }
    }
}
