// NotesIndex: an app that makes its own records searchable with the Searchlight library.
//
// Searchlight is shaped like Apple's CoreSpotlight. An app describes each record as a
// `SearchableItem` (an identifier unique within a domain, plus an `AttributeSet`), hands the
// items to a `SearchableIndex`, and later asks the index for the items whose name words
// (display name, title, keywords) match what someone typed. The records here are notes and
// contacts, not files: nothing in this program touches the file system except the index.
//
// Run it with `swift run NotesIndex`.

import Foundation
import Searchlight

// MARK: - The app's own data

/// A note, as a note-taking app keeps it.
struct Note {
    var id: Int
    var title: String
    var body: String
    var tags: [String]
    var created: Date
    var modified: Date
    /// Some notes are only useful for a while, like a reminder.
    var expires: Date? = nil
}

/// A contact, as an address book keeps it.
struct Contact {
    var id: String
    var name: String
    var company: String
    var email: String
}

let day: TimeInterval = 24 * 60 * 60
let now = Date()

let notes = [
    Note(id: 1, title: "Shopping list", body: "Milk, eggs, crème fraîche, bread.",
         tags: ["groceries", "weekend"], created: now - 3 * day, modified: now - 1 * day),
    Note(id: 2, title: "Quarterly report outline", body: "1. Revenue 2. Costs 3. Outlook for Q4",
         tags: ["work", "2024"], created: now - 30 * day, modified: now - 2 * day),
    Note(id: 3, title: "Résumé ideas", body: "Lead with the Café Société project.",
         tags: ["career"], created: now - 10 * day, modified: now - 10 * day),
    Note(id: 4, title: "Recipe: crème brûlée", body: "6 yolks, 100 g sugar, 500 ml cream.",
         tags: ["cooking", "dessert"], created: now - 60 * day, modified: now - 5 * day),
    // This one expires one second from now: the index forgets it on its own.
    Note(id: 5, title: "Parking reminder", body: "Car is on level 3, spot 42.",
         tags: ["today"], created: now, modified: now, expires: now + 1),
]

let contacts = [
    Contact(id: "c-zoe", name: "Zoë Müller", company: "Café Société", email: "zoe@example.org"),
    Contact(id: "c-wang", name: "王伟", company: "Shanghai Shopping Co.", email: "wang.wei@example.com"),
]

// MARK: - From records to searchable items

// Each kind of record gets its own domain, so that the app can later drop a whole kind at once
// (say, when the user signs out of the address book) with `deleteAllItems(inDomains:)`.
let notesDomain = "notes"
let contactsDomain = "contacts"

extension Note {
    /// The note as an item: the note's id is its identifier within the "notes" domain.
    var searchableItem: SearchableItem {
        var attributes = AttributeSet(contentType: "text/markdown")
        attributes.displayName = title          // name words are searched first...
        attributes.title = title                // ...then the title...
        attributes.keywords = tags              // ...then the keywords.
        attributes.textContent = body           // ...and the text last (with a snippet of it).
        attributes.size = Int64(body.utf8.count)
        attributes.contentCreationDate = created
        attributes.contentModificationDate = modified  // breaks ties: most recent first
        return SearchableItem(
            uniqueIdentifier: ItemIdentifier("note-\(id)"),
            domainIdentifier: notesDomain,
            attributeSet: attributes,
            expirationDate: expires)
    }
}

extension Contact {
    /// The contact as an item in the "contacts" domain.
    var searchableItem: SearchableItem {
        var attributes = AttributeSet(contentType: "text/vcard")
        attributes.displayName = name
        attributes.contentDescription = "\(company) · \(email)"
        attributes.keywords = [company, "contact"]
        return SearchableItem(
            uniqueIdentifier: ItemIdentifier(id),
            domainIdentifier: contactsDomain,
            attributeSet: attributes)
    }
}

// MARK: - Printing

/// Runs a search and prints what it finds, best match first, with where it matched.
func show(_ words: [String], in index: SearchableIndex, domain: String? = nil) throws {
    let results = try index.searchResults(words: words, domain: domain)
    let scope = domain.map { " in \($0)" } ?? ""
    print("search \(words.map { "\"\($0)\"" }.joined(separator: " "))\(scope): \(results.count) result(s)")
    for result in results {
        let item = result.item.item
        let name = item.attributeSet.displayName ?? item.uniqueIdentifier.description
        let keywords = item.attributeSet.keywords.joined(separator: ", ")
        print("  [\(item.domainIdentifier)] \(item.uniqueIdentifier)  \(name)  (\(keywords))  in \(result.matchedIn.rawValue)"
              + (result.snippet.map { ": \($0)" } ?? ""))
    }
}

/// Prints how many items each domain holds.
func showCounts(of index: SearchableIndex) throws {
    let statistics = try index.statistics()
    let counts = statistics.domains.map { "\($0.name): \($0.itemCount)" }
    print("index holds \(counts.isEmpty ? "nothing" : counts.joined(separator: ", "))")
}

// MARK: - The walk-through

func run() throws {
    // An index is one SQLite file. An app would keep it in its data folder, for instance
    // ~/.local/share/MyApp/index.sqlite; this sample uses a temporary folder and removes it.
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("NotesIndex-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let index = try SearchableIndex(path: folder.appendingPathComponent("index.sqlite").path)
    print("index: \(index.path)\n")

    // 1. Index everything in one call (one transaction). Indexing an item whose identifier is
    //    already in its domain replaces it, so the same call also serves for updates.
    try index.indexItems(notes.map(\.searchableItem) + contacts.map(\.searchableItem))
    try showCounts(of: index)
    print()

    // 2. Search. Every query word must start a word of the display name, title, keywords or
    //    text; case and diacritics are ignored, camelCase and digits split words.
    try show(["shop"], in: index)                       // "Shopping list", and 王伟's company
    try show(["resume"], in: index)                     // finds "Résumé ideas"
    try show(["quarterly", "rep"], in: index)           // every word must match
    try show(["creme"], in: index)                      // the recipe by its name, the shopping list by its text
    try show(["muller"], in: index, domain: contactsDomain)
    try show(["parking"], in: index)                    // still there: it expires in a second
    print()

    // 3. Fetch one item with all its attributes, as an app does to show a search result.
    if let found = try index.item("note-2", domain: notesDomain) {
        let attributes = found.item.attributeSet
        print("note-2: title \"\(attributes.title ?? "")\", type \(attributes.contentType ?? "?"),"
              + " \(attributes.size ?? 0) bytes, text \"\(attributes.textContent ?? "")\"")
        print()
    }

    // 4. Expiration: once its date has passed, an item is no longer returned, and the next
    //    write removes it from the file.
    Thread.sleep(forTimeInterval: 1.2)
    try show(["parking"], in: index)
    print()

    // 5. The user deletes a note: delete its item by identifier.
    try index.deleteItems(withIdentifiers: ["note-1"], domain: notesDomain)
    try show(["shop"], in: index)                       // only the contact's company is left
    print()

    // 6. The user disconnects the address book: delete the whole domain.
    let deleted = try index.deleteAllItems(inDomains: [contactsDomain])
    print("deleted the \(contactsDomain) domain: \(deleted) item(s)")
    try show(["shop"], in: index)
    try showCounts(of: index)
}

do {
    try run()
} catch {
    // Searchlight's errors print as one line that says what failed and where.
    FileHandle.standardError.write(Data("NotesIndex: \(error)\n".utf8))
    exit(1)
}
