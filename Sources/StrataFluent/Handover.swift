#if Fluent
    /// A value that a future hands to the next one, and that nothing else
    /// uses meanwhile: Fluent's transactions return any type, which NIO's
    /// futures only chain when it is `Sendable`.
    struct Handover<Value>: @unchecked Sendable {
        let value: Value

        init(_ value: Value) {
            self.value = value
        }
    }
#endif
