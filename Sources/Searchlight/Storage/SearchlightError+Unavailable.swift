extension SearchlightError {
    /// Whether the index could not be reached: a store whose database server stopped, restarted
    /// or is cut off (the PostgreSQL index's connection errors, its ``cause``) reports it as a
    /// `.database` error for which this is true. Nothing was written; the same call may
    /// succeed once the server is back, with no other step (the store reconnects by itself).
    public var isUnavailable: Bool {
        guard case .other(let error) = cause else { return false }
        return (error as? any IndexStoreError)?.isUnavailable ?? false
    }
}
