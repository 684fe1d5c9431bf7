import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// A real GNOME Shell, headless (`gnome-shell --headless --virtual-monitor`), on a
/// ``PrivateBus`` whose `searchlight-desktop` it asks as its search provider (found in a data
/// folder of its own, as `make install` lays the `.ini` and `.desktop` files out), with a system
/// bus of its own (logind is not asked: the shell only needs one to connect to).
///
/// The shell runs in a session mode of the test's (`--mode`), which enables an extension of the
/// test's that puts the shell in unsafe mode: `org.gnome.Shell.Eval` then runs the test's
/// JavaScript, which types in the overview's search entry and reads the rows back. Settings are
/// kept in memory (`GSETTINGS_BACKEND=memory`): nothing of the machine's is read or written.
final class HeadlessShell {
    let bus: PrivateBus
    let folder: TemporaryTree
    let systemBus: ChildProcess
    let shell: ChildProcess
    let log: String
    /// The shell's last answer to ``search(_:timeout:)``'s script, for a failure's message.
    private(set) var lastAnswer = ""

    static let mode = "searchlight-check"
    static let extensionID = "searchlight-check@searchlight.test"
    static let providerID = "org.searchlight.Desktop.desktop"

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// One row of the provider's results as the shell shows it.
    struct Row: Decodable, Equatable {
        var name: String
        var description: String
        /// The description as the shell draws it: Pango markup, the typed words in `<b>`.
        var markup: String
        /// The row's icon, as GIO writes it: a path for a picture, `. GThemedIcon …` for a type.
        var icon: String
    }

    init(bus: PrivateBus) throws {
        self.bus = bus
        let folder = TemporaryTree("gnome-shell")
        self.folder = folder
        log = folder.path + "/gnome-shell.log"
        folder.mkdirs("run")
        #expect(chmod(folder.path + "/run", 0o700) == 0)
        folder.mkdirs("data/gnome-shell/modes")
        folder.write("data/gnome-shell/modes/\(Self.mode).json",
                     #"{ "parentMode": "user", "enabledExtensions": ["\#(Self.extensionID)"] }"# + "\n")
        let extensionFolder = "home/.local/share/gnome-shell/extensions/\(Self.extensionID)"
        folder.mkdirs(extensionFolder)
        folder.write(extensionFolder + "/metadata.json", """
            { "uuid": "\(Self.extensionID)", "name": "Searchlight check", "description": "Lets a test ask the shell (Eval)", "shell-version": ["43", "44", "45"] }

            """)
        folder.write(extensionFolder + "/extension.js", """
            function init() {
                return {
                    enable() { global.context.unsafe_mode = true; },
                    disable() { global.context.unsafe_mode = false; },
                };
            }

            """)
        // The provider's files where GNOME Shell looks for them (XDG_DATA_DIRS), as installed.
        let bin = URL(fileURLWithPath: Searchlight.desktopBinary).deletingLastPathComponent().path
        let desktop = PrivateBus.repository.path + "/Examples/desktop/"
        folder.mkdirs("data/gnome-shell/search-providers")
        folder.mkdirs("data/applications")
        folder.write("data/gnome-shell/search-providers/org.searchlight.Desktop.search-provider.ini",
                     try String(contentsOfFile: desktop + "org.searchlight.Desktop.search-provider.ini", encoding: .utf8))
        folder.write("data/applications/org.searchlight.Desktop.desktop",
                     try String(contentsOfFile: desktop + "org.searchlight.Desktop.desktop", encoding: .utf8)
                        .replacingOccurrences(of: "@BINDIR@", with: bin))
        folder.write("system.conf", PrivateBus.configuration(type: "system", listen: "unix:path=\(folder.path)/run/system_bus"))
        systemBus = try ChildProcess(["dbus-daemon", "--config-file", folder.path + "/system.conf", "--nofork"],
                                     stdout: .null, stderr: .file(folder.path + "/system-bus.log"))
        let systemSocket = folder.path + "/run/system_bus"
        guard waitUntil(timeout: 30, { access(systemSocket, F_OK) == 0 }) else {
            systemBus.send(SIGKILL)
            throw Failure(description: "the system bus did not start")
        }
        shell = try ChildProcess(
            ["gnome-shell", "--headless", "--virtual-monitor", "1024x768", "--wayland", "--no-x11", "--mode=\(Self.mode)"],
            environment: [
                "DBUS_SESSION_BUS_ADDRESS": bus.address, "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=" + systemSocket,
                "XDG_RUNTIME_DIR": folder.path + "/run", "HOME": folder.path + "/home",
                "XDG_DATA_HOME": folder.path + "/home/.local/share", "XDG_CONFIG_HOME": folder.path + "/home/.config",
                "XDG_CACHE_HOME": bus.cache, "XDG_DATA_DIRS": folder.path + "/data:/usr/local/share:/usr/share",
                "GSETTINGS_BACKEND": "memory", "WAYLAND_DISPLAY": nil, "DISPLAY": nil, "XDG_SESSION_TYPE": nil,
            ],
            stdout: .file(log), stderr: .file(log, append: true))
        guard waitUntil(timeout: 120, every: .milliseconds(250), { (try? evaluate("global.context.unsafe_mode")) == "true" })
        else {
            stop()
            throw Failure(description: "GNOME Shell did not start in unsafe mode: \(logTail)")
        }
    }

    deinit { stop() }

    private func stop() {
        shell.send(SIGKILL)
        shell.waitUntilExit()
        systemBus.send(SIGKILL)
        systemBus.waitUntilExit()
    }

    /// The end of the shell's log, for a failure's message.
    var logTail: String {
        String(((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").suffix(3000))
    }

    /// Runs JavaScript in the shell (`org.gnome.Shell.Eval`) and returns its result as the shell
    /// writes it (JSON for a string).
    func evaluate(_ script: String) throws -> String {
        // A GVariant string literal: gdbus would read some scripts as GVariant text otherwise.
        let literal = "\"" + script.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
        let result = try bus.call("/org/gnome/Shell", "org.gnome.Shell.Eval", literal, destination: "org.gnome.Shell")
        guard result.status == 0 else { throw Failure(description: "Eval failed: \(result.error)") }
        // `(true, 'RESULT')`, or with double quotes when RESULT holds a single one; `(false, …)`
        let output = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard output.hasPrefix("(true, '") && output.hasSuffix("')") || output.hasPrefix("(true, \"") && output.hasSuffix("\")")
        else { throw Failure(description: "Eval: \(output)") }
        return Self.unquoted(String(output.dropFirst("(true, '".count).dropLast(2)))
    }

    /// What GLib's printing of a string escapes, taken back.
    static func unquoted(_ printed: String) -> String {
        var text = ""
        var escaped = false
        for character in printed {
            if escaped {
                text.append(character == "n" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                text.append(character)
            }
        }
        return text
    }

    /// Types `query` into the overview's search entry, as a person would after pressing Super,
    /// and returns the provider's rows once the shell shows at least one (each with its
    /// description's markup and its icon), or none when `timeout` passes. A search the shell
    /// dropped (on a loaded machine it can cancel one while the provider is still starting) is
    /// typed again, every `retypeAfter` seconds.
    func search(_ query: String, timeout: TimeInterval = 120, retypeAfter: TimeInterval = 20) throws -> [Row] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let rows = try typeOnce(query, timeout: min(retypeAfter, max(0, deadline.timeIntervalSinceNow)))
            if !rows.isEmpty || Date() >= deadline { return rows }
            _ = try evaluate("Main.overview.searchEntry.set_text(''); 'cleared'")
        }
    }

    private func typeOnce(_ query: String, timeout: TimeInterval) throws -> [Row] {
        let literal = String(decoding: try JSONEncoder().encode(query), as: UTF8.self)
        _ = try evaluate("Main.overview.show(); Main.overview.searchEntry.set_text(\(literal)); 'typed'")
        let read = """
            (() => {
                const results = Main.overview._overview.controls._searchController._searchResults;
                const provider = results._providers.find(p => p.id === '\(Self.providerID)');
                if (!provider || !provider.display) return '[]';
                const typed = \(literal).trim().split(/\\s+/).join(' ').toLowerCase();
                if (provider.display._terms.join(' ').toLowerCase() !== typed) return '[]';
                // The rows of this search only: the display updates its rows after its terms.
                const current = results._results[provider.id] || [];
                const rows = provider.display._content.get_children().filter(row => row.metaInfo);
                if (!rows.every(row => current.includes(row.metaInfo.id))) return '[]';
                return JSON.stringify(rows
                    .map(row => ({
                        name: row.metaInfo.name, description: row.metaInfo.description || '',
                        markup: results.highlightTerms((row.metaInfo.description || '').split('\\n')[0]),
                        icon: row.metaInfo.createIcon(32).gicon.to_string(),
                    })));
            })()
            """
        var rows: [Row] = []
        waitUntil(timeout: timeout, every: .milliseconds(200)) {
            // The shell answers with the JSON of the script's value: here a string of JSON.
            let value: String
            do { value = try evaluate(read) } catch { lastAnswer = "\(error)"; return false }
            lastAnswer = value
            guard let json = try? JSONDecoder().decode(String.self, from: Data(value.utf8)),
                  let decoded = try? JSONDecoder().decode([Row].self, from: Data(json.utf8))
            else { return false }
            rows = decoded
            return !rows.isEmpty
        }
        return rows
    }

    /// A PNG of the whole screen (`org.gnome.Shell.Screenshot`), written to `path`.
    func screenshot(to path: String) throws {
        let result = try bus.call("/org/gnome/Shell/Screenshot", "org.gnome.Shell.Screenshot.Screenshot", "false", "false", path,
                                  destination: "org.gnome.Shell")
        guard result.status == 0 else { throw Failure(description: "Screenshot failed: \(result.error)") }
    }
}
