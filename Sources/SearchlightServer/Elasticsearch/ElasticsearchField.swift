import Searchlight

/// A field of Samba's Elasticsearch mappings (`/usr/share/samba/mdssvc/elasticsearch_mappings.json`,
/// which follows FSCrawler's documents) that Searchlight answers, and the attribute that holds it.
///
/// | Field | Spotlight attribute | Searchlight attribute |
/// |---|---|---|
/// | `file.filename` | `kMDItemDisplayName`, `kMDItemFSName` | `displayName` |
/// | `content` | `kMDItemTextContent` | `textContent` (by words) |
/// | `file.content_type` | `kMDItemContentType`, `…Tree`, `_kMDItemGroupId` | `contentType` (MIME) |
/// | `file.filesize` | `kMDItemFSSize` | `size` |
/// | `file.last_modified` | `kMDItemContentModificationDate`, `kMDItemFSContentChangeDate` | `contentModificationDate` |
/// | `file.created` | `kMDItemContentCreationDate`, `kMDItemFSCreationDate` | `contentCreationDate` |
/// | `meta.title`, `meta.author` | `kMDItemTitle`, `kMDItemAuthors` | `title`, `authors` (by words) |
/// | `meta.raw.xmpTPg:NPages` | `kMDItemNumberOfPages` | `pageCount` |
/// | `meta.raw.Image Width`, `…Height` | `kMDItemPixelWidth`, `…Height` | `pixelWidth`, `pixelHeight` |
/// | `path.real` | `kMDItemPath` | the root's path and `path` |
///
/// The other fields of the mappings (owner and group, creator, description, duration, album,
/// bits per sample, resolution) are not kept by Searchlight: a query on them is refused.
enum ElasticsearchField: String, CaseIterable, Sendable {
    case fileName = "file.filename"
    case content
    case contentType = "file.content_type"
    case fileSize = "file.filesize"
    case lastModified = "file.last_modified"
    case created = "file.created"
    case title = "meta.title"
    case author = "meta.author"
    case pageCount = "meta.raw.xmpTPg:NPages"
    case pixelWidth = "meta.raw.Image Width"
    case pixelHeight = "meta.raw.Image Height"
    /// The file's absolute path on the server.
    case realPath = "path.real"
    /// Samba 4.17's scope, `path.real.fulltext:"/srv/share"`: the files below that folder.
    case realPathWords = "path.real.fulltext"

    /// The field named `name`.
    /// - Throws: ``ElasticsearchError`` (400) for a field Searchlight does not answer.
    init(name: String) throws(ElasticsearchError) {
        guard let field = Self(rawValue: name) else {
            throw .query("Searchlight keeps no field [\(name)]; it answers "
                         + Self.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self = field
    }

    /// What the values of the field are.
    enum Kind {
        /// Words or whole values, matched by ``attribute``.
        case text
        case number
        case date
        /// An absolute path.
        case path
    }

    var kind: Kind {
        switch self {
        case .fileName, .content, .contentType, .title, .author: .text
        case .fileSize, .pageCount, .pixelWidth, .pixelHeight: .number
        case .lastModified, .created: .date
        case .realPath, .realPathWords: .path
        }
    }

    /// The attribute that holds the field (for a path, the item's identifier).
    var attribute: QueryAttribute {
        switch self {
        case .fileName: .displayName
        case .content: .textContent
        case .contentType: .contentType
        case .fileSize: .size
        case .lastModified: .contentModificationDate
        case .created: .contentCreationDate
        case .title: .title
        case .author: .authors
        case .pageCount: .pageCount
        case .pixelWidth: .pixelWidth
        case .pixelHeight: .pixelHeight
        case .realPath, .realPathWords: .path
        }
    }

    /// How a value is matched, as Finder asks (`"…"cd`, `"…"cdw`, which Samba does not pass on):
    /// a name whole, ignoring case and diacritics (`*report*` for a part of it); text by its
    /// words; a MIME type as written. `inDefaultFields`: a value without a field (`*=="word"`
    /// in Spotlight) is a word of the name too.
    func modifiers(inDefaultFields: Bool) -> QueryStringModifiers {
        switch self {
        case .fileName: inDefaultFields ? [.caseInsensitive, .diacriticInsensitive, .wordBased]
                                        : [.caseInsensitive, .diacriticInsensitive]
        case .content, .title, .author: [.caseInsensitive, .diacriticInsensitive, .wordBased]
        default: []
        }
    }
}
