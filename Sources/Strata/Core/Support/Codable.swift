import Foundation

// Ready-made conversions for Codable types: declare an empty conformance and
// values are stored as JSON text.
//
//     struct Color: Codable { var red, green, blue: Double }
//     extension Color: DatabaseValueConvertible { }

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

extension DatabaseValueConvertible where Self: Codable {
    /// Stored as JSON TEXT, encoded with ``databaseJSONEncoder()``.
    ///
    /// A value that can't be encoded (a NaN with the default encoder, for
    /// example) is a fatal error, since a database value can't fail.
    public var databaseValue: DatabaseValue {
        do {
            let data = try Self.databaseJSONEncoder().encode(self)
            return DatabaseValue(storage: .string(String(decoding: data, as: UTF8.self)))
        } catch {
            fatalError("Could not encode \(Self.self) as JSON: \(error)")
        }
    }

    /// Decodes JSON text (or a JSON blob) with ``databaseJSONDecoder()``; nil
    /// for other values and JSON that does not decode.
    public static func fromDatabaseValue(_ databaseValue: DatabaseValue) -> Self? {
        let data: Data
        switch databaseValue.storage {
        case .string(let string): data = Data(string.utf8)
        case .blob(let blob): data = blob
        case .null, .int64, .double: return nil
        }
        return try? databaseJSONDecoder().decode(Self.self, from: data)
    }
}

extension DatabaseValueConvertible where Self: Codable & RawRepresentable, Self.RawValue: DatabaseValueConvertible {
    /// Codable enums are stored as their raw value, not as JSON.
    public var databaseValue: DatabaseValue {
        rawValue.databaseValue
    }

    /// Decodes the raw value, then the value; nil for unknown raw values.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        guard let rawValue = RawValue.fromDatabaseValue(dbValue) else { return nil }
        return Self(rawValue: rawValue)
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

    static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .throw
        (decoder.dataDecodingStrategy, decoder.dateDecodingStrategy) = (.base64, .millisecondsSince1970)
        return decoder
    }
}
