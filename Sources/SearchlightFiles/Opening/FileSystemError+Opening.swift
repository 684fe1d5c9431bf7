// Why an item's file cannot be opened on the desktop (``FileOpener``).
extension FileSystemError.Code {
    /// The item's domain has no folder, its file is another machine's or gone, or `xdg-open`
    /// cannot run or fails.
    public static let cannotOpen = Self(name: "cannot open")
}
