#if Macros
    import Strata

    /// A row of `t`, decoded by the code that `@DatabaseRecord` writes, in
    /// the app's module.
    @DatabaseRecord
    public struct ClientMacroItem: FetchableRecord, TableRecord {
        public static let databaseTableName = "t"
        public var i0: Int
        public var i1: Int
        public var i2: Int
        public var i3: Int
        public var i4: Int
        public var i5: Int
        public var i6: Int
        public var i7: Int
        public var i8: Int
        public var i9: Int
    }
#endif
