import Foundation
import Logging
import Searchlight
import SearchlightFiles
import SearchlightJSON
import SearchlightPostgres

/// What both desktop interfaces ask of the index: searches as `searchlight search` runs them
/// (``Searchlight/RankedSearch``), the results' descriptions and icons, and opening a result's file.
///
/// The index stays open between calls (a failed read closes it, the next call opens it again);
/// the results of the last searches are kept so that a result's description carries its snippet.
final class DesktopSearch {
    /// The index: a file path or a `postgres://` URL.
    let location: String
    /// Results per search: GNOME Shell shows five, KRunner a few more.
    let limit: Int
    let thumbnails: ThumbnailCache
    let logger: Logger
    private var store: (any FileIndexReader)?
    private var recent: [ResultID: SearchResult] = [:]
    /// The question's encoder of search by meaning, when a model is installed: found at start,
    /// loaded at the first search of three words or more (Docs/Contract.md#search-by-meaning).
    private let questionEncoder: QuestionEncoder?
    /// A result described once keeps its description while the shell asks again.
    private static let recentLimit = 500

    init(location: String, limit: Int = 20, questionEncoder: QuestionEncoder?, thumbnails: ThumbnailCache, logger: Logger) {
        self.location = location
        self.questionEncoder = questionEncoder
        self.limit = limit
        self.thumbnails = thumbnails
        self.logger = logger
    }

    /// Runs `body` on the open index; an index error closes it (it is opened again next time).
    func reading<T>(_ body: (any FileIndexReader) throws -> T) throws(DesktopError) -> T {
        do {
            let index = try store ?? open()
            store = index
            return try body(index)
        } catch let failure as DesktopError {
            throw failure
        } catch let error as SearchlightError where error.code == .noIndex {
            store = nil
            throw DesktopError(.failed, "\(error); run `searchlight scan FOLDER` first", cause: error)
        } catch {
            store = nil
            throw DesktopError(.failed, "\(error)", cause: error)
        }
    }

    private func open() throws -> any FileIndexReader {
        if PostgresLocation.isPostgresURL(location) { return try PostgresStore(url: location, readOnly: true, logger: logger) }
        return try SearchableIndex(path: location, readOnly: true, logger: logger)
    }

    /// The best results for terms as a shell hands them over; no terms, no results.
    func search(_ terms: [String]) throws(DesktopError) -> [SearchResult] {
        // A search word still being typed (`kind:sof`) finds nothing yet: not an error.
        guard var search = try? RankedSearch(terms: terms), !search.isEmpty else { return [] }
        search.history = OpenHistory.standard()
        search.encoder = questionEncoder
        let results = try reading { try search.results(in: $0, limit: limit) }
        if recent.count > Self.recentLimit { recent.removeAll(keepingCapacity: true) }
        for result in results { recent[ResultID(result.item.item)] = result }
        return results
    }

    /// The result a shell names: from the last searches, else read from the index (without
    /// a snippet); `nil` when it is no longer in the index.
    func result(_ id: ResultID) throws(DesktopError) -> SearchResult? {
        if let result = recent[id] { return result }
        return try reading { index in
            try index.item(id.identifier, domain: id.domain).map { SearchResult(item: $0, matchedIn: .name) }
        }
    }

    /// Each domain's root, read from the index.
    func roots() throws(DesktopError) -> ItemJSON {
        try reading { try ItemJSON(index: $0) }
    }

    /// The absolute path of a result's file on this machine.
    func path(of id: ResultID) throws(DesktopError) -> [UInt8] {
        guard let result = try result(id) else { throw .invalid("no such result: \(id.string.debugDescription)") }
        let roots = try roots()
        return try reading { try FileOpener.path(of: result.item.item, at: roots.absolutePath(result.item.item), in: $0) }
    }

    /// Opens a result's file, or the folder that holds it, with the desktop's default application.
    /// Opening a result (not its folder) ranks it higher in later searches (``OpenHistory``).
    func open(_ id: ResultID, containingFolder: Bool = false) throws(DesktopError) {
        var path = try path(of: id)
        if !containingFolder { OpenHistory.standard().record(domain: id.domain, identifier: id.identifier) }
        if containingFolder, let slash = path.lastIndex(of: UInt8(ascii: "/")) { path = Array(path[..<max(slash, 1)]) }
        do {
            try FileOpener.open(path)
        } catch {
            throw .failed(error.description)
        }
    }

    /// What a shell shows under a result's name: for a match in the text or in keywords drawn
    /// from it, the text around the words found (as the document writes them), without the `[`
    /// `]` that mark them (GNOME Shell highlights the typed words in a description itself, and
    /// would show the brackets as typed); otherwise its folder
    /// (`~` for the home folder) and its kind. An item whose drive is not mounted (`offline`)
    /// says so first: "not connected".
    func description(of result: SearchResult, path: [UInt8]?, offline: Bool = false) -> String {
        let text = placeDescription(of: result, path: path)
        return offline ? "not connected — " + text : text
    }

    private func placeDescription(of result: SearchResult, path: [UInt8]?) -> String {
        if result.matchedIn.isDescribedByText, let snippet = result.snippet, !snippet.isEmpty {
            return Self.rowText(ofSnippet: snippet)
        }
        var parts: [String] = []
        if let path, let slash = path.lastIndex(of: UInt8(ascii: "/")) {
            var folder = String(decoding: path[..<max(slash, 1)], as: UTF8.self)
            let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
            if !home.isEmpty, home != "/", folder == home || folder.hasPrefix(home + "/") {
                folder = "~" + folder.dropFirst(home.count)
            }
            parts.append(folder)
        }
        let attributes = result.item.item.attributeSet
        if let kind = attributes.contentDescription ?? attributes.contentType, !kind.isEmpty { parts.append(kind) }
        return parts.joined(separator: " — ")
    }

    /// A snippet as one row reads it: the marks of the words found taken out, its spaces and
    /// line breaks one space each, and at most `length` characters, starting a little before
    /// the first word found (`…` where text was cut).
    static func rowText(ofSnippet snippet: String, length: Int = 90) -> String {
        let first = snippet.firstIndex(of: "[").map { snippet.distance(from: snippet.startIndex, to: $0) } ?? 0
        var characters: [Character] = []
        var found = 0
        for (offset, character) in snippet.enumerated() {
            if offset == first { found = characters.count }
            if character == "[" || character == "]" { continue }
            let blank = character.isWhitespace || character.isNewline
            if blank, characters.last == " " { continue }
            characters.append(blank ? " " : character)
        }
        var start = max(0, min(found - 20, characters.count - length))
        var end = min(characters.count, start + length)
        // Whole words at the cuts: after the first space past the start, before the last one.
        if start > 0, let space = characters[start..<min(found, end)].firstIndex(of: " ") { start = space + 1 }
        if end < characters.count, let space = characters[max(found, start)..<end].lastIndex(of: " ") { end = space }
        var text = String(characters[start..<end]).trimmingCharacters(in: .whitespaces)
        if start > 0 { text = "…" + text }
        if end < characters.count { text += "…" }
        return text
    }

    /// The name a shell shows for a result.
    func name(of result: SearchResult) -> String {
        let item = result.item.item
        return item.attributeSet.displayName ?? String(decoding: item.uniqueIdentifier.lastComponent, as: UTF8.self)
    }

    /// A result's icon as GNOME Shell's `gicon` takes it: the thumbnail, a PNG in the
    /// freedesktop cache, when it reads at a row's size (a photo, a slide, a cover); else the
    /// themed icon of its type (a page of text or a blank page would show as a white square).
    func icon(of result: SearchResult, path: [UInt8]?) -> String {
        if let path, result.item.thumbnailInfo != nil, let entry = thumbnails.thumbnail(ofFileAt: path), entry.legibleAsIcon {
            return entry.path
        }
        return ItemIcon.gicon(contentType: result.item.item.attributeSet.contentType)
    }
}

extension ResultID {
    init(_ item: SearchableItem) {
        self.init(domain: item.domainIdentifier, identifier: item.uniqueIdentifier)
    }
}
