// The memory layouts that the literals of statement arguments are read
// with in place (see StatementArgumentsEngine.swift): where an existential
// container keeps its value and type metadata, and which strings need no
// release. Each is checked once against actual values, and the results are
// read at each insert without a `swift_once` call.

import Foundation

/// The type metadata of the argument types that `databaseValue(at:)` reads
/// straight from an existential container, once checked against the actual
/// layout of `(any DatabaseValueConvertible)?`.
///
/// The addresses are read where they are used: the metadata of these
/// standard library types is a symbol of the standard library, which costs
/// no `swift_once` call, where a global or static value does at each read.
/// `isVerified` is read once per literal (by `PlainValues.areAll`): the
/// other functions only see literals it accepted.
struct ExistentialLayout: Sendable {
    /// The offset of the type metadata in an existential container: after
    /// three words of inline storage. nil there is `Optional.none`.
    static let typeOffset = 3 * MemoryLayout<Int>.size

    /// Type metadata addresses.
    let int: UInt
    let int64: UInt
    let double: UInt
    let string: UInt

    /// The metadata addresses.
    @inline(__always)
    init() {
        int = Self.metadata(Int.self)
        int64 = Self.metadata(Int64.self)
        double = Self.metadata(Double.self)
        string = Self.metadata(String.self)
    }

    @inline(__always)
    private static func metadata(_ type: Any.Type) -> UInt {
        UInt(bitPattern: unsafeBitCast(type, to: UnsafeRawPointer.self))
    }

    /// Whether values and metadata were found where expected.
    static var isVerified: Bool {
        @inline(__always) get { LayoutCheck.existentials.holds(verifiedBy: verify) }
    }

    /// Checks the layout against actual values.
    private static func verify() -> Bool {
        let layout = ExistentialLayout()
        func check(_ value: (any DatabaseValueConvertible)?, _ body: (UnsafeRawPointer, UInt) -> Bool) -> Bool {
            withUnsafePointer(to: value) { pointer in
                let raw = UnsafeRawPointer(pointer)
                return body(raw, raw.load(fromByteOffset: typeOffset, as: UInt.self))
            }
        }
        let int = layout.int, int64 = layout.int64, double = layout.double, string = layout.string
        return MemoryLayout<(any DatabaseValueConvertible)?>.size == typeOffset + 2 * MemoryLayout<Int>.size
            && check(nil) { _, type in type == 0 }
            && check(-42 as Int) { raw, type in type == int && raw.load(as: Int.self) == -42 }
            && check(-43 as Int64) { raw, type in type == int64 && raw.load(as: Int64.self) == -43 }
            && check(0.5 as Double) { raw, type in type == double && raw.load(as: Double.self) == 0.5 }
            && check("a somewhat long string, not a small one") { raw, type in
                type == string
                    && raw.assumingMemoryBound(to: String.self).pointee == "a somewhat long string, not a small one"
            }
    }
}

/// The one-time checks of the memory layouts that literals are read with,
/// whose results are read at each insert: they are kept in a C atomic (see
/// `_strata_layout_check_result` in the SQLite shim), which costs a load,
/// where a lazy global costs a `swift_once` call at each read.
enum LayoutCheck: CInt {
    /// `ExistentialLayout.isVerified`.
    case existentials = 0
    /// `ImmortalStrings.isVerified`.
    case immortalStrings = 1

    /// Whether the layout holds, checked by `verify` on first use.
    ///
    /// Never inlined: the storage of a C `static inline` function's
    /// variable is private to each object file that uses it, and release
    /// builds compile each Swift file to an object of its own. Reading the
    /// result where another file's code stored it would check again at each
    /// call; reading and storing here, in one file, checks once.
    @inline(never)
    func holds(verifiedBy verify: () -> Bool) -> Bool {
        switch _strata_layout_check_result(rawValue, 0) {
        case 1: return true
        case 2: return false
        default:
            let holds = verify()
            // Threads that check at once store the same result.
            _ = _strata_layout_check_result(rawValue, holds ? 1 : 2)
            return holds
        }
    }
}

/// Which strings need no release: the literals of the program and small
/// strings (such as the names of named arguments) are immortal, and their
/// release is a call that does nothing (two calls, 24 instructions). A string
/// is two words, and the top bit of the second one tells an immortal string;
/// checked once against actual strings, as `ExistentialLayout` is.
enum ImmortalStrings {
    /// Whether the top bit of a string's second word was found set for
    /// immortal strings only.
    static var isVerified: Bool {
        @inline(__always) get { LayoutCheck.immortalStrings.holds(verifiedBy: verify) }
    }

    /// Checks the bit against actual strings.
    private static func verify() -> Bool {
        func isMarkedImmortal(_ string: String) -> Bool {
            withUnsafePointer(to: string) { ImmortalStrings.isMarkedImmortal(UnsafeRawPointer($0)) }
        }
        let native = String(repeating: "native string, allocated at run time ", count: 2)
        return MemoryLayout<String>.size == 2 * MemoryLayout<UInt64>.size
            && isMarkedImmortal("a") && isMarkedImmortal("a somewhat long string, not a small one")
            && !isMarkedImmortal(native)
    }

    /// Whether the string at `string` is marked immortal (see `isVerified`).
    @inline(__always)
    static func isMarkedImmortal(_ string: UnsafeRawPointer) -> Bool {
        string.load(fromByteOffset: MemoryLayout<UInt64>.size, as: UInt64.self) >> 63 == 1
    }

    /// Destroys the string at `string`, unless it is immortal and
    /// `skipsImmortal` (which must be `isVerified`).
    @inline(__always)
    static func destroy(_ string: UnsafeMutableRawPointer, skipsImmortal: Bool) {
        if skipsImmortal && isMarkedImmortal(string) { return }
        _ = string.assumingMemoryBound(to: String.self).move()
    }
}
