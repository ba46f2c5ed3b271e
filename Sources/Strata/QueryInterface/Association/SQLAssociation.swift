/// The key of an association: the name of the row scope, of the prefetched
/// rows, and of the decoded property.
enum SQLAssociationKey: Sendable {
    /// Derived from a table name: singular for to-one associations
    /// (`author`), plural for to-many associations (`books`).
    case inflected(String)
    /// Given with `key:` or `forKey(_:)`.
    case fixed(String)

    func name(toMany: Bool) -> String {
        switch self {
        case .inflected(let tableName):
            return toMany ? Inflections.default.pluralize(tableName) : Inflections.default.singularize(tableName)
        case .fixed(let name):
            return name
        }
    }

    /// The singular name, used by aggregate keys (`bookCount`).
    var singularName: String {
        switch self {
        case .inflected(let tableName): return Inflections.default.singularize(tableName)
        case .fixed(let name): return Inflections.default.singularize(name)
        }
    }
}

/// One join of an association: `book` → `author`. Associations through
/// other associations have several steps.
struct SQLAssociationStep: Sendable {
    var key: SQLAssociationKey
    var isToMany: Bool
    var condition: SQLJoinCondition
    /// The table at the end of the step, with its refinements.
    var relation: SQLQuery

    var keyName: String { key.name(toMany: isToMany) }

    /// The key of the step when it is joined: a to-many key becomes
    /// singular (`books` → `book`), since a joined row is one row.
    var joinedKeyName: String { isToMany ? key.singularName : keyName }
}

/// The description of an association, shared by all association types.
///
/// Not for direct use: it is public only because association types expose
/// it to the protocols they conform to.
public struct _SQLAssociation: Sendable {
    /// The steps from the origin table to the destination table.
    var steps: [SQLAssociationStep]
    /// The key of the association.
    var key: SQLAssociationKey
    var isToMany: Bool

    init(key: SQLAssociationKey, isToMany: Bool, condition: SQLJoinCondition, relation: SQLQuery) {
        self.steps = [SQLAssociationStep(key: key, isToMany: isToMany, condition: condition, relation: relation)]
        self.key = key
        self.isToMany = isToMany
    }

    /// An association through a pivot association.
    init(through pivot: _SQLAssociation, target: _SQLAssociation, key: String?, isToMany: Bool) {
        // The key of the pivot (`forKey` included) names the scope of the
        // pivot table.
        var pivotSteps = pivot.steps
        pivotSteps[pivotSteps.count - 1].key = pivot.key
        var targetSteps = target.steps
        targetSteps[targetSteps.count - 1].key = target.key
        self.steps = pivotSteps + targetSteps
        self.key = key.map(SQLAssociationKey.fixed) ?? target.key
        self.isToMany = isToMany
    }

    var keyName: String { key.name(toMany: isToMany) }

    /// The key when joined or included as to-one: singular (`children` → `child`).
    var joinedKeyName: String { isToMany ? key.singularName : keyName }

    /// The destination table and its refinements.
    var destination: SQLQuery {
        get { steps[steps.count - 1].relation }
        set { steps[steps.count - 1].relation = newValue }
    }

    func mapDestination(_ update: (inout SQLQuery) -> Void) -> _SQLAssociation {
        var result = self
        update(&result.destination)
        return result
    }

    func forKey(_ key: String) -> _SQLAssociation {
        var result = self
        result.key = .fixed(key)
        return result
    }

    /// The join of the association in a request, as nested joins for
    /// associations through pivots.
    func join(kind: SQLJoin.Kind, mode: SQLJoin.Mode) -> SQLJoin {
        let last = steps[steps.count - 1]
        var join = SQLJoin(
            key: joinedKeyName, kind: kind, mode: mode, condition: last.condition, relation: last.relation)
        for step in steps.dropLast().reversed() {
            var relation = step.relation
            relation.addJoin(join)
            join = SQLJoin(
                key: step.joinedKeyName, kind: kind, mode: .none, condition: step.condition, relation: relation)
        }
        return join
    }

    /// The association with an alias for its destination table, created if needed.
    func withDestinationAlias() -> (_SQLAssociation, TableAliasBase) {
        if let alias = destination.alias { return (self, alias) }
        let alias = TableAliasBase(tableName: destination.tableName)
        return (mapDestination { $0.alias = alias }, alias)
    }
}
