import Foundation

extension FetchableRecord {
    /// Empty.
    public static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [:] }

    /// A decoder that reads `Data` as base64, `Date` as milliseconds since
    /// 1970, throws on non-conforming floats, and has the record's
    /// ``databaseDecodingUserInfo``.
    public static func databaseJSONDecoder(for column: String) -> JSONDecoder {
        let decoder = JSONCoding.makeDecoder()
        decoder.userInfo = JSONCoding.userInfo(databaseDecodingUserInfo)
        return decoder
    }

    /// ``DatabaseDateDecodingStrategy/deferredToDate``.
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .deferredToDate
    }

    /// ``DatabaseDataDecodingStrategy/deferredToData``.
    public static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
        .deferredToData
    }

    /// ``DatabaseColumnDecodingStrategy/useDefaultKeys``.
    public static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .useDefaultKeys }
}

extension FetchableRecord where Self: Decodable {
    /// Decodes the record from the row with its `Decodable` implementation:
    /// coding keys are column names (see ``databaseColumnDecodingStrategy``),
    /// and a decoding failure throws ``RowDecodingError``.
    @inlinable
    public init(row: Row) throws {
        self = try Self(from: TopLevelRecordDecoder<Self>(row: row))
    }
}
