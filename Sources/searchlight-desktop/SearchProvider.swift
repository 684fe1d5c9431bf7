/// GNOME Shell's search provider (`org.gnome.Shell.SearchProvider2`): the results of what is
/// typed in the overview, their names, descriptions and icons, opening one, and "more results"
/// (the search page).
struct SearchProvider {
    static let interface = "org.gnome.Shell.SearchProvider2"
    static let objectPath = "/org/searchlight/SearchProvider"
    static let introspection = BusInterface(interface, methods: [
        .init("GetInitialResultSet", in: ["as terms"], out: ["as results"]),
        .init("GetSubsearchResultSet", in: ["as previous_results", "as terms"], out: ["as results"]),
        .init("GetResultMetas", in: ["as identifiers"], out: ["aa{sv} metas"]),
        .init("ActivateResult", in: ["s identifier", "as terms", "u timestamp"]),
        .init("LaunchSearch", in: ["as terms", "u timestamp"]),
    ]).introspection

    let search: DesktopSearch
    let page: PageLauncher

    func handle(_ call: BusCall) throws(DesktopError) {
        switch call.method {
        case "GetInitialResultSet":
            call.reply(strings: try search.search(call.strings(at: 0)).map { ResultID($0.item.item).string })
        case "GetSubsearchResultSet":
            // A new search rather than a filter of the previous results: those were cut at the
            // limit, and a longer word can rank other items first.
            call.reply(strings: try search.search(call.strings(at: 1)).map { ResultID($0.item.item).string })
        case "GetResultMetas":
            call.reply(dictionaries: try metas(call.strings(at: 0)))
        case "ActivateResult":
            try search.open(try Self.resultID(call.strings(at: 0).first ?? ""))
            call.replyEmpty()
        case "LaunchSearch":
            try page.open(terms: call.strings(at: 0))
            call.replyEmpty()
        default:
            throw .invalid("no method \(call.method)")
        }
    }

    /// `id`, `name`, `description` and `gicon` of each result still in the index, in order.
    func metas(_ ids: [String]) throws(DesktopError) -> [[(String, String)]] {
        var metas: [[(String, String)]] = []
        let roots = try search.roots()
        for string in ids {
            guard let id = ResultID(string), let result = try search.result(id) else { continue }
            let path = roots.absolutePath(result.item.item)
            metas.append([
                ("id", string),
                ("name", search.name(of: result)),
                ("description", search.description(of: result, path: path, offline: roots.isOffline(result.item.item.reference))),
                ("gicon", search.icon(of: result, path: path)),
            ])
        }
        return metas
    }

    static func resultID(_ string: String) throws(DesktopError) -> ResultID {
        guard let id = ResultID(string) else { throw .invalid("not a result of this provider: \(string.debugDescription)") }
        return id
    }
}
