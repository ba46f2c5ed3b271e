import StrataSQLite

/// An FTS5 tokenizer written in Swift, registered with
/// ``Database/add(tokenizer:)``:
///
/// ```swift
/// final class MyTokenizer: FTS5CustomTokenizer {
///     static let name = "my_tokenizer"
///     init(db: Database, arguments: [String]) throws { ... }
///     func tokenize(context:tokenization:pText:nText:tokenCallback:) -> CInt { ... }
/// }
///
/// db.add(tokenizer: MyTokenizer.self)
/// try db.create(virtualTable: "document", using: FTS5()) { t in
///     t.tokenizer = MyTokenizer.tokenizerDescriptor()
///     t.column("content")
/// }
/// ```
public protocol FTS5CustomTokenizer: FTS5Tokenizer {
    /// The tokenizer name, used in the `tokenize=` option.
    static var name: String { get }

    /// Creates a tokenizer for a full-text table, with the arguments that
    /// follow the tokenizer name in the `tokenize=` option.
    init(db: Database, arguments: [String]) throws
}

extension FTS5CustomTokenizer {
    /// Returns a descriptor of the tokenizer with arguments, for the
    /// ``FTS5TableDefinition/tokenizer`` of a table.
    public static func tokenizerDescriptor(arguments: [String] = []) -> FTS5TokenizerDescriptor {
        FTS5TokenizerDescriptor(components: [name] + arguments)
    }
}

extension Database {
    /// Registers a custom FTS5 tokenizer on the connection, so that
    /// full-text tables can use it.
    public func add(tokenizer: (some FTS5CustomTokenizer).Type) {
        let api = FTS5.api(self)
        let registration = FTS5TokenizerRegistration(db: self, type: tokenizer)
        var methods = fts5_tokenizer(
            xCreate: { context, azArg, nArg, ppOut in
                guard let context, let ppOut else { return SQLITE_ERROR }
                let registration = Unmanaged<FTS5TokenizerRegistration>.fromOpaque(context).takeUnretainedValue()
                let arguments = (0..<Int(nArg)).compactMap { index in
                    azArg?[index].map { String(cString: $0) }
                }
                do {
                    let tokenizer = try registration.type.init(db: registration.db, arguments: arguments)
                    let box = FTS5TokenizerBox(tokenizer)
                    ppOut.pointee = OpaquePointer(Unmanaged.passRetained(box).toOpaque())
                    return SQLITE_OK
                } catch let error as DatabaseError {
                    return error.extendedResultCode.rawValue
                } catch {
                    return SQLITE_ERROR
                }
            },
            xDelete: { tokenizerPointer in
                guard let tokenizerPointer else { return }
                Unmanaged<FTS5TokenizerBox>.fromOpaque(UnsafeRawPointer(tokenizerPointer)).release()
            },
            xTokenize: { tokenizerPointer, pCtx, flags, pText, nText, xToken in
                guard let tokenizerPointer, let xToken else { return SQLITE_ERROR }
                let box = Unmanaged<FTS5TokenizerBox>.fromOpaque(UnsafeRawPointer(tokenizerPointer))
                    .takeUnretainedValue()
                return box.tokenizer.tokenize(
                    context: pCtx, tokenization: FTS5Tokenization(rawValue: flags), pText: pText, nText: nText,
                    tokenCallback: xToken)
            })
        let code = api.pointee.xCreateTokenizer(
            UnsafeMutablePointer(mutating: api), tokenizer.name,
            Unmanaged.passRetained(registration).toOpaque(), &methods
        ) { context in
            guard let context else { return }
            Unmanaged<FTS5TokenizerRegistration>.fromOpaque(context).release()
        }
        precondition(code == SQLITE_OK, "could not register FTS5 tokenizer \(tokenizer.name)")
    }
}

/// The context of a registered custom tokenizer: its connection and type.
private final class FTS5TokenizerRegistration {
    unowned(unsafe) let db: Database
    let type: any FTS5CustomTokenizer.Type

    init(db: Database, type: any FTS5CustomTokenizer.Type) {
        self.db = db
        self.type = type
    }
}

/// A tokenizer instance, retained while FTS5 uses it.
private final class FTS5TokenizerBox {
    let tokenizer: any FTS5Tokenizer

    init(_ tokenizer: any FTS5Tokenizer) {
        self.tokenizer = tokenizer
    }
}
