extension ThumbnailInfo {
    /// What an index knows of a stored thumbnail; for indexes outside this module (PostgreSQL),
    /// which cannot see the memberwise initializer.
    public init(_ format: String, width: Int, height: Int, byteCount: Int) {
        self.format = format
        self.width = width
        self.height = height
        self.byteCount = byteCount
    }
}
