import Strata
import StrataClientRecords
import WorkloadSupport

// Record fetches whose record types live in another module
// (StrataClientRecords), as an app's do, with the table request of the
// type, `SELECT * FROM "t"` (issue 46). StrataRecordWorkloads.swift
// keeps the same fetches of types declared in this module.

extension StrataReads {
    /// Records of another module, with a hand-written `init(row:)` reading columns by name.
    public func fetchClientRecordsByName() throws -> Int {
        try dbQueue.read { db in
            try ClientNamedItem.fetchAll(db).count
        }
    }

    /// Records of another module, with a hand-written `init(row:)` reading columns by index.
    public func fetchClientRecordsByIndex() throws -> Int {
        try dbQueue.read { db in
            try ClientIndexedItem.fetchAll(db).count
        }
    }

    /// `Decodable` records of another module.
    public func fetchClientDecodableRecords() throws -> Int {
        try dbQueue.read { db in
            try ClientDecodedItem.fetchAll(db).count
        }
    }

    #if Macros
        /// `@DatabaseRecord` records of another module.
        public func fetchClientMacroRecords() throws -> Int {
            try dbQueue.read { db in
                try ClientMacroItem.fetchAll(db).count
            }
        }

    #endif

    /// Records of 14 mostly optional columns read by index, from another
    /// module: `OptionalHeavyFixture.fetchCount` fetches of table `entry`.
    public func fetchOptionalHeavyRecords() throws -> Int {
        try dbQueue.read { db in
            var count = 0
            for _ in 0..<OptionalHeavyFixture.fetchCount {
                count += try ClientEntry.fetchAll(db).count
            }
            return count
        }
    }
}
