extension QueryInterfaceRequest: JoinableRequest {
    /// Adds a joined table (not for direct use).
    public func _joining(_ join: _SQLJoinBox) -> QueryInterfaceRequest<RowDecoder> {
        map { $0.addJoin(join.join) }
    }

    /// Adds prefetched rows (not for direct use).
    public func _prefetching(_ prefetch: _SQLPrefetchBox) -> QueryInterfaceRequest<RowDecoder> {
        map { $0.addPrefetch(prefetch.prefetch) }
    }

    /// Adds an aggregate to the selection (not for direct use).
    public func _annotating(_ aggregate: _SQLAggregateBox) -> QueryInterfaceRequest<RowDecoder> {
        map { aggregate.apply(to: &$0, having: false) }
    }

    /// Filters groups with an aggregate (not for direct use).
    public func _having(_ aggregate: _SQLAggregateBox) -> QueryInterfaceRequest<RowDecoder> {
        map { aggregate.apply(to: &$0, having: true) }
    }
}
