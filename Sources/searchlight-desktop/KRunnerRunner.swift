import Foundation

/// One of KRunner's matches (`(sssida{sv})`).
struct RunnerMatch {
    var id: String
    var text: String
    var icon: String
    /// KRunner's `QueryMatch::Type`: ``exactMatch`` or ``possibleMatch``.
    var type: Int32
    /// 0 to 1, higher first.
    var relevance: Double
    var urls: [String]
    var subtext: String?
    var category: String?

    static let possibleMatch: Int32 = 30
    static let exactMatch: Int32 = 100
}

/// KRunner's D-Bus runner (`org.kde.krunner1`), which Plasma's launcher (Alt+Space) and its
/// application menu's search ask as the user types: matches, running one (opening the file),
/// and the actions a match offers (opening its folder).
struct KRunnerRunner {
    static let interface = "org.kde.krunner1"
    static let objectPath = "/org/searchlight/KRunner"
    static let introspection = BusInterface(interface, methods: [
        .init("Actions", out: ["a(sss) matches"]),
        .init("Match", in: ["s query"], out: ["a(sssida{sv}) matches"]),
        .init("Run", in: ["s matchId", "s actionId"]),
    ]).introspection

    /// The action of every match besides opening it: id, text, icon.
    static let openFolder = (id: "open-folder", text: "Open Containing Folder", icon: "document-open-folder")

    let search: DesktopSearch

    func handle(_ call: BusCall) throws(DesktopError) {
        switch call.method {
        case "Actions":
            call.reply(triples: [(Self.openFolder.id, Self.openFolder.text, Self.openFolder.icon)])
        case "Match":
            call.reply(matches: try matches(call.strings(at: 0).first ?? ""))
        case "Run":
            let action = call.strings(at: 1).first ?? ""
            guard action.isEmpty || action == Self.openFolder.id else { throw .invalid("no action \(action.debugDescription)") }
            try search.open(try SearchProvider.resultID(call.strings(at: 0).first ?? ""), containingFolder: !action.isEmpty)
            call.replyEmpty()
        default:
            throw .invalid("no method \(call.method)")
        }
    }

    /// The matches of what was typed: the search's results, best first, with decreasing
    /// relevance; an exact match when the name without its extension is the query. KRunner
    /// takes an icon theme's name, not a picture's path: the type's icon.
    func matches(_ query: String) throws(DesktopError) -> [RunnerMatch] {
        let results = try search.search([query])
        guard !results.isEmpty else { return [] }
        let roots = try search.roots()
        let typed = query.trimmingCharacters(in: .whitespaces).lowercased()
        return results.enumerated().map { rank, result in
            let path = roots.absolutePath(result.item.item)
            let name = search.name(of: result)
            let stem = name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
            return RunnerMatch(
                id: ResultID(result.item.item).string, text: name, icon: ItemIcon.name(contentType: result.item.item.attributeSet.contentType),
                type: stem.lowercased() == typed ? RunnerMatch.exactMatch : RunnerMatch.possibleMatch,
                relevance: 1 - Double(rank) / Double(results.count) * 0.5,
                urls: path.map { [FileURI.string(path: $0)] } ?? [],
                subtext: search.description(of: result, path: path, offline: roots.isOffline(result.item.item.reference)), category: "Searchlight")
        }
    }
}
