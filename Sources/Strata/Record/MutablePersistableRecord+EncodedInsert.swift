// The INSERT of an `Encodable` record whose encoder binds the record's
// values straight to the cached INSERT statement of the record type's last
// encoding, instead of filling a `PersistenceContainer` that the statement
// then reads. The encoder binds a value when its key is the one that wrote
// the template's next column in a previous record; at the first value it
// did not expect, it gives up, and the record is inserted through a
// container. The SQL, callbacks, errors and results are those of the
// container path (RecordPersistenceInfo+BoundInsert.swift).
//
// Which records take this path is only known by trying: a record whose own
// `encode(to:)` fills the container binds nothing, and its type then stops
// trying on this connection; a type whose records keep changing their
// columns stops after two records in a row that did not bind.

extension MutablePersistableRecord {
    /// Inserts the record with the values its encoder bound, and returns
    /// nil when the values were not bound (see above): the caller then
    /// inserts through a container.
    @inlinable
    func insertBindingEncodedColumns(
        _ db: Database, _ info: RecordPersistenceInfo, onConflict conflictResolution: Database.ConflictResolution?
    ) throws -> InsertionSuccess? {
        guard let columnCount = info.encodedColumnCount else { return nil }
        let conflict = conflictResolution ?? Self.persistenceConflictPolicy.conflictResolutionForInsert
        guard let statement = try info.boundInsertStatement(db, columnCount: columnCount, conflict: conflict)
        else { return nil }
        // Borrowed: `info`, which this function keeps, owns the statement
        // (its INSERT entries are never removed).
        return try statement._withUnsafeGuaranteedRef { statement in
            var container = info.makeBindingContainer(statement)
            defer { info.endBinding(&container) }
            try encode(to: &container)
            guard let bindCode = info.encodedBindCode(columnCount: columnCount) else { return nil }
            return try info.executeBoundInsert(
                db, statement, bindCode: bindCode, deferredContainer: info.deferredContainer(for: self))
        }
    }
}

extension RecordPersistenceInfo {
    /// The number of columns that an encoder may bind: those of the last
    /// encoding; nil when the record type does not bind its encoded values
    /// (see the top of this file), or before its first encoding.
    @usableFromInline
    var encodedColumnCount: Int? {
        guard bindsEncodedColumns, encodingTemplateCount > 0 else { return nil }
        return encodingTemplateCount
    }

    /// A container for the record, whose encoder is asked to bind its
    /// values to `statement` (see `RecordEncoder.binding`).
    ///
    /// The container is `bindingContainer`, moved out, unless its columns
    /// are not the template's: `endBinding(_:)` moves it back.
    @usableFromInline
    func makeBindingContainer(_ statement: Statement) -> PersistenceContainer {
        encodedColumnBinding.start(statement, recordType: typeID)
        let binding = encodedColumnBinding
        RecordEncoderCache.withCurrent { $0.requestBinding(binding) }
        var container = PersistenceContainer()
        swap(&container, &bindingContainer)
        guard let template = encodingTemplate, container.isEmptyBindingContainer(of: template) else {
            return PersistenceContainer(bindingTemplate: encodingTemplate ?? [])
        }
        return container
    }

    /// Forgets the request of `makeBindingContainer(_:)` when no encoder
    /// took it (the next record encoded on this thread must not bind), and
    /// keeps the container for the next record, emptied, unless it stored
    /// values (a record that gave up binding).
    @usableFromInline
    func endBinding(_ container: inout PersistenceContainer) {
        if !encodedColumnBinding.isTaken {
            RecordEncoderCache.withCurrent { $0.cancelBinding() }
        }
        container.templateCount = 0
        if container.followsTemplate && container.values.isEmpty {
            swap(&container, &bindingContainer)
        }
    }

    /// The code of the binding (`SQLITE_OK`, or the first failed bind's)
    /// when the encoder bound every column; otherwise nil, after noting
    /// that the record type binds nothing, or that one more record did not
    /// bind.
    @usableFromInline
    func encodedBindCode(columnCount: Int) -> CInt? {
        let binding = encodedColumnBinding
        if !binding.isAbandoned && binding.boundCount == columnCount {
            unboundEncodingCount = 0
            return binding.bindCode
        }
        if !binding.isAbandoned && binding.boundCount == 0 {
            // The record's own `encode(to:)` filled the container.
            bindsEncodedColumns = false
        } else {
            unboundEncodingCount += 1
            if unboundEncodingCount >= 2 { bindsEncodedColumns = false }
        }
        return nil
    }
}
