/// A connection describes itself with the ``Database/description`` it was
/// given when it was opened ("GRDB.DatabaseQueue", or the configuration's label).
extension Database: CustomStringConvertible {}
