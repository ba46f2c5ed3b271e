/// The standard library's `SendableMetatype`, under the name GRDB programs
/// use in their constraints.
public typealias GRDBSendableMetatype = SendableMetatype
