import Foundation

// Ready-made conversions for Codable types: declare an empty conformance.
// Single values are stored plainly, and other values as JSON text.
//
//     struct Color: Codable { var red, green, blue: Double }
//     extension Color: DatabaseValueConvertible { }  // JSON: {"blue":0,...}
//
//     struct Name: Codable { var rawName: String  /* single value coding */ }
//     extension Name: DatabaseValueConvertible { }   // TEXT: the name

extension DatabaseValueConvertible {
    /// The JSON decoder of ``fromDatabaseValue(_:)`` for `Codable` values.
    ///
    /// The default decoder reads `Data` as base64 strings, `Date` as
    /// milliseconds since 1970, and throws on non-conforming floats.
    /// Implement this method in your type to customize it.
    public static func databaseJSONDecoder() -> JSONDecoder {
        JSONCoding.makeDecoder()
    }

    /// The JSON encoder of ``databaseValue`` for `Codable` values.
    ///
    /// The default encoder writes `Data` as base64 strings, `Date` as
    /// milliseconds since 1970, sorts object keys, and throws on
    /// non-conforming floats (NaN, infinity). Implement this method in your
    /// type to customize it.
    public static func databaseJSONEncoder() -> JSONEncoder {
        JSONCoding.makeEncoder()
    }
}

extension DatabaseValueConvertible where Self: Encodable {
    /// A value whose encoding is a single value (a wrapper around a string or
    /// a number) is stored as that plain value. Other values (keyed or
    /// unkeyed containers) are stored as JSON TEXT, encoded with
    /// ``databaseJSONEncoder()``.
    ///
    /// A value that can't be encoded (a NaN with the default encoder, for
    /// example) is a fatal error, since a database value can't fail.
    public var databaseValue: DatabaseValue {
        if let plain = SingleValueDatabaseEncoder.databaseValue(of: self) {
            return plain
        }
        do {
            let data = try Self.databaseJSONEncoder().encode(self)
            return DatabaseValue(storage: .string(String(decoding: data, as: UTF8.self)))
        } catch {
            fatalError("Could not encode \(Self.self) as JSON: \(error)")
        }
    }
}

extension DatabaseValueConvertible where Self: Decodable {
    /// Decodes the plain value first, as stored by values whose encoding is a
    /// single value; then JSON text (or a JSON blob), for arrays and objects,
    /// with ``databaseJSONDecoder()``. Nil when neither decodes.
    public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Self? {
        if let value = SingleValueDatabaseDecoder.decode(Self.self, from: databaseValue) {
            return value
        }
        let data: Data
        switch databaseValue.storage {
        case .string(let string): data = Data(string.utf8)
        case .blob(let blob): data = blob
        case .null, .int64, .double: return nil
        }
        return try? databaseJSONDecoder().decode(Self.self, from: data)
    }
}

extension DatabaseValueConvertible where Self: Encodable & RawRepresentable, Self.RawValue: DatabaseValueConvertible {
    /// Codable enums are stored as their raw value, not as JSON.
    public var databaseValue: DatabaseValue {
        rawValue.databaseValue
    }
}

extension DatabaseValueConvertible where Self: Decodable & RawRepresentable, Self.RawValue: DatabaseValueConvertible {
    /// Decodes the raw value, then the value; nil for unknown raw values.
    public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(databaseValue).flatMap(Self.init(rawValue:))
    }
}

/// The default JSON format of values stored as JSON: base64 data, dates in
/// milliseconds since 1970, errors on NaN and infinities, stable key order.
enum JSONCoding {
    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        (encoder.outputFormatting, encoder.nonConformingFloatEncodingStrategy) = (.sortedKeys, .throw)
        (encoder.dataEncodingStrategy, encoder.dateEncodingStrategy) = (.base64, .millisecondsSince1970)
        return encoder
    }

    /// User info for the JSON coders, whose `userInfo` holds Sendable
    /// values. The values are the user's: Sendable is a marker protocol,
    /// erased at run time, so that both dictionaries have the same layout.
    static func userInfo(_ info: [CodingUserInfoKey: Any]) -> [CodingUserInfoKey: any Sendable] {
        unsafeBitCast(info, to: [CodingUserInfoKey: any Sendable].self)
    }

    static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .throw
        (decoder.dataDecodingStrategy, decoder.dateDecodingStrategy) = (.base64, .millisecondsSince1970)
        return decoder
    }
}
