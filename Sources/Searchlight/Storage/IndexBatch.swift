/// Changes to apply to an index in one transaction: all of them land, or none.
///
/// ```swift
/// var batch = IndexBatch()
/// batch.upsert(item)
/// batch.delete("old-note", domain: "notes")
/// try index.apply(batch)
/// ```
///
/// ## Overview
///
/// A batch is a value: building it reads and writes nothing, and it can be built on one
/// thread and applied on another. ``SearchableIndex/apply(_:)`` and the PostgreSQL index's
/// `apply(_:)` run its changes in their order in one transaction, so a batch is the unit of
/// both atomicity and cost: a commit per batch, not per change. A file indexer fills one per
/// window of events or per thousand files of a scan.
///
/// A move (``move(_:to:domain:rename:)``) re-keys the stored rows: the items keep their text,
/// thumbnail and vectors of meaning, where a delete and an upsert would have the text indexed
/// again. A delete of a tree (``deleteTree(_:domain:)``) reaches every identifier below the
/// folder's, by the `/`-separated paths (``ItemIdentifier/descendantBounds``).
///
/// ## Topics
///
/// ### Building a batch
///
/// - ``init()``
/// - ``upsert(_:)``
/// - ``delete(_:domain:)``
/// - ``deleteTree(_:domain:)``
/// - ``move(_:to:domain:rename:)``
/// - ``setUserAttributes(_:of:domain:changeStamp:access:)``
/// - ``setFolderAccess(_:of:domain:)``
///
/// ### Reading it
///
/// - ``changes``
/// - ``count``
/// - ``isEmpty``
/// - ``Change``
/// - ``Rename``
public struct IndexBatch: Sendable {
    /// One change.
    public enum Change: Sendable {
        /// Insert the item, or replace every attribute (and the thumbnail) of the item with its identifier.
        case upsert(SearchableItem)
        /// Delete one item.
        case delete(domain: String, identifier: ItemIdentifier)
        /// Delete the item `identifier` and every item below it (`identifier/…`), as when a folder is deleted.
        case deleteTree(domain: String, identifier: ItemIdentifier)
        /// Re-key the item `from` and every item below it (`from/…`) to `to`, keeping their attributes,
        /// as when a file or folder is renamed or moved. Items already at the new keys are replaced.
        /// `rename`, when not `nil`, gives the moved item a new display name; its descendants
        /// keep theirs.
        case move(domain: String, from: ItemIdentifier, to: ItemIdentifier, rename: Rename? = nil)
        /// Replace only the ``UserAttributes`` of an item (and its change stamp), keeping its
        /// content, text and thumbnail: when tags or a comment changed and nothing else did.
        /// Nothing happens when there is no such item.
        /// `access`, when given, replaces who may read the item (``SearchableItem/access``).
        case setUserAttributes(domain: String, identifier: ItemIdentifier, attributes: UserAttributes, changeStamp: [UInt8]?,
                               access: FileAccess? = nil)
        /// Records who may pass through the folder `folder` (a path below the domain's root;
        /// empty for the root) or, for `ancestors`, through the root's own path from `/`:
        /// a shared index shows an item only to those who may pass every folder above it
        /// (Docs/Contract.md#shared-index). Deleted and re-keyed with the items of a tree
        /// (``deleteTree(domain:identifier:)``, ``move(domain:from:to:rename:)``). An index
        /// kept by one person (SQLite) keeps none.
        case setFolderAccess(domain: String, folder: FolderAccessKey, access: FileAccess)
    }

    /// Which folder a ``Change/setFolderAccess(domain:folder:access:)`` is about.
    public enum FolderAccessKey: Sendable, Hashable {
        /// A folder at this path below the root (empty: the root itself).
        case inside(ItemIdentifier)
        /// A folder above the root: `/`, then each folder down to the root's parent, by absolute path.
        case above(String)
    }

    /// A new display name for a moved item, and what becomes of a title and keywords that the
    /// caller took from the old name. The index has no rule of its own for that: by default
    /// the title and keywords are kept as they were.
    ///
    /// ```swift
    /// // A file indexer's rule: a file's title is its name without extension.
    /// let rename = IndexBatch.Rename(displayName: "Summary.pdf",
    ///                                title: .init(old: "Report", new: "Summary"), nameKeywordsFollow: true)
    /// ```
    public struct Rename: Sendable, Equatable {
        /// A title that follows the name: the title the caller's rule gives the old name, and
        /// the one it gives the new name.
        public struct TitleChange: Sendable, Equatable {
            /// The title the caller's rule gives the old name.
            public var old: String
            /// The title it gives the new name.
            public var new: String
            /// A title that was `old` under the old name and becomes `new`.
            public init(old: String, new: String) { (self.old, self.new) = (old, new) }
        }

        /// The new display name.
        public var displayName: String
        /// When given, an item whose title is `title.old` gets `title.new`; any other title
        /// (a document's own) is kept.
        public var title: TitleChange?
        /// Whether keywords that start with the old name's words (``AttributeSet/nameKeywords(of:)``)
        /// start with the new name's words instead. When `false`, keywords are kept as they were.
        public var nameKeywordsFollow: Bool

        /// Renames the moved item to `displayName`; its title follows only as `title` says, its
        /// keywords only when `nameKeywordsFollow`.
        public init(displayName: String, title: TitleChange? = nil, nameKeywordsFollow: Bool = false) {
            self.displayName = displayName
            self.title = title
            self.nameKeywordsFollow = nameKeywordsFollow
        }

        /// Whether the rename may change more than the display name.
        var changesText: Bool { title != nil || nameKeywordsFollow }

        /// The title and keywords of an item renamed from `oldName`, which had `title` and
        /// `keywords`: what every index implementation stores after the rename.
        public func renamed(title: String?, keywords: [String], oldName: String?)
            -> (title: String?, keywords: [String]) {
            var result = (title: title, keywords: keywords)
            if let change = self.title, let title, title.utf8.elementsEqual(change.old.utf8) {
                result.title = change.new
            }
            if nameKeywordsFollow, let oldName {
                let oldWords = AttributeSet.nameKeywords(of: oldName)
                if !oldWords.isEmpty, keywords.starts(with: oldWords, by: { $0.utf8.elementsEqual($1.utf8) }) {
                    result.keywords = AttributeSet.nameKeywords(of: displayName) + keywords.dropFirst(oldWords.count)
                }
            }
            return result
        }
    }

    /// The changes, applied in order.
    public var changes: [Change] = []

    /// An empty batch.
    public init() {}

    /// The number of changes.
    public var count: Int { changes.count }
    /// Whether there is nothing to apply.
    public var isEmpty: Bool { changes.isEmpty }

    /// Inserts `item`, or replaces the item of its domain and identifier (``Change/upsert(_:)``).
    public mutating func upsert(_ item: SearchableItem) { changes.append(.upsert(item)) }
    /// Deletes one item (``Change/delete(domain:identifier:)``).
    public mutating func delete(_ identifier: ItemIdentifier, domain: String) {
        changes.append(.delete(domain: domain, identifier: identifier))
    }
    /// Deletes an item and every item below it, as when a folder is deleted
    /// (``Change/deleteTree(domain:identifier:)``).
    public mutating func deleteTree(_ identifier: ItemIdentifier, domain: String) {
        changes.append(.deleteTree(domain: domain, identifier: identifier))
    }
    /// Replaces the tags, comment, rating and origins of an item (``Change/setUserAttributes(domain:identifier:attributes:changeStamp:access:)``).
    ///
    /// What an indexer writes when a file's change time alone moved: its text and thumbnail
    /// are not read again.
    ///
    /// - Parameters:
    ///   - attributes: The new user attributes.
    ///   - identifier: The item's identifier; nothing happens when there is no such item.
    ///   - domain: The item's domain.
    ///   - changeStamp: The item's new change stamp.
    ///   - access: Who may read the item's file now, on a shared index; `nil` keeps it.
    public mutating func setUserAttributes(_ attributes: UserAttributes, of identifier: ItemIdentifier, domain: String,
                                           changeStamp: [UInt8]?, access: FileAccess? = nil) {
        changes.append(.setUserAttributes(domain: domain, identifier: identifier, attributes: attributes, changeStamp: changeStamp,
                                          access: access))
    }
    /// Records who may pass through a folder (``Change/setFolderAccess(domain:folder:access:)``).
    public mutating func setFolderAccess(_ access: FileAccess, of folder: FolderAccessKey, domain: String) {
        changes.append(.setFolderAccess(domain: domain, folder: folder, access: access))
    }
    /// Re-keys `from` and its descendants to `to`, keeping every attribute; `rename`, when
    /// given, renames the moved item itself (the library never derives a name from an identifier).
    ///
    /// - Parameters:
    ///   - from: The identifier of the item (or folder) moved.
    ///   - to: Its new identifier; items already at the new keys are replaced.
    ///   - domain: The domain, the same before and after.
    ///   - rename: The moved item's new display name, and what becomes of its title and
    ///     keywords; `nil` keeps its name.
    ///
    /// ```swift
    /// batch.move("Reports/2023", to: "Archive/Reports 2023", domain: "documents",
    ///            rename: IndexBatch.Rename(displayName: "Reports 2023"))
    /// ```
    public mutating func move(_ from: ItemIdentifier, to: ItemIdentifier, domain: String, rename: Rename? = nil) {
        changes.append(.move(domain: domain, from: from, to: to, rename: rename))
    }
}
