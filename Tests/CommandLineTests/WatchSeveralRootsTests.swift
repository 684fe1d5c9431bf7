import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// One `watch` process for the configured roots: exclusions, priority, pause and backoff.
@Suite("searchlight watch of the configured roots", .serialized, .ownThread)
struct WatchSeveralRootsTests {
    let documents = TemporaryTree("citizen-documents")
    let projects = TemporaryTree("citizen-projects")
    let work = TemporaryTree("citizen-work")
    var index: String { work.path + "/index.sqlite" }
    var configFile: String { work.path + "/config.toml" }

    init() {
        FileManager.default.createFile(atPath: configFile, contents: Data("""
            [[roots]]
            path = "\(documents.path)"
            domain = "documents"

            [[roots]]
            path = "\(projects.path)"
            domain = "projects"
            """.utf8))
    }

    /// Starts `searchlight watch` (no folder: the configured ones) and waits for both roots'
    /// "watching" lines. At normal priority unless `priority` says otherwise: at idle priority a
    /// watch on a machine crowded with other tests' processes gets almost no CPU and says
    /// nothing for minutes, as it should.
    func startWatch(arguments: [String] = [], priority: [String] = Searchlight.busyMachine,
                    environment: [String: String] = [:], waitForRoots: Bool = true) throws -> (ChildProcess, String) {
        let log = work.path + "/watch-\(UUID().uuidString).log"
        FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        var env = ["SEARCHLIGHT_PRESSURE_ROOT": work.path + "/no-pressure"]
        env.merge(environment) { $1 }
        let process = try Searchlight.start(["watch", "--config", configFile, "--no-thumbnails"] + priority + arguments,
                                            index: index, environment: env, stderr: handle)
        guard waitForRoots else { return (process, log) }
        let ready = waitUntil {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            return text.contains("watching \(documents.path)") && text.contains("watching \(projects.path)")
        }
        #expect(ready, "no 'watching' lines: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        return (process, log)
    }

    /// What `list --domain DOMAIN` prints, relative to the domain's configured root.
    func listed(_ domain: String) -> [String] {
        let root = domain == "documents" ? documents : projects
        return ((try? Searchlight.run(["list", "--domain", domain], index: index).paths(under: root.path)) ?? []).sorted()
    }

    /// The pending changes a watcher reports for `domain` in `status --json`.
    func pendingChanges(in domain: String) -> Int {
        guard let output = try? Searchlight.run(["status", "--json"], index: index).stdout,
              let status = try? JSONSerialization.jsonObject(with: Data(output)) as? [String: Any],
              let domains = status["domains"] as? [[String: Any]],
              let entry = domains.first(where: { $0["name"] as? String == domain }),
              let watch = entry["watch"] as? [String: Any] else { return 0 }
        return watch["pendingChanges"] as? Int ?? 0
    }

    func stop(_ watch: ChildProcess) {
        kill(watch.processIdentifier, SIGTERM)
        watch.waitUntilExit()
        #expect(watch.terminationStatus == 0)
    }

    @Test func followsBothRootsWithoutExcludedFilesOrSecrets() throws {
        documents.write("Letter.txt")
        projects.write("web/index.html", "<title>Home</title>\n")
        projects.write("web/package.json", "{}\n")
        let (watch, _) = try startWatch()
        defer { stop(watch) }
        #expect(listed("documents") == ["Letter.txt"])
        #expect(listed("projects") == ["web/index.html", "web/package.json"])

        // One inotify instance follows both roots (each open instance is a descriptor
        // linked to "anon_inode:inotify").
        let descriptors = "/proc/\(watch.processIdentifier)/fd"
        let instances = ((try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []).filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: descriptors + "/" + $0)) == "anon_inode:inotify"
        }
        #expect(instances.count == 1, "\(instances)")

        // New files in both roots; a node_modules, secrets and a .searchlightignore'd folder stay out.
        projects.write("web/node_modules/left-pad/index.js")
        projects.write("web/keys/server.pem")
        projects.write("web/.ssh/id_rsa")
        projects.write("web/.searchlightignore", "scratch/\n")
        projects.write("web/scratch/tmp.txt")
        projects.write("web/app.js")
        documents.write("Notes/Todo.txt")
        #expect(waitUntil { listed("projects") == ["web/app.js", "web/index.html", "web/package.json"] },
                "\(listed("projects"))")
        #expect(waitUntil { listed("documents") == ["Letter.txt", "Notes/Todo.txt"] })
        // A folder created under an excluded one gets no watch: files in it never appear.
        projects.write("web/node_modules/deep/er/x.js")
        projects.write("web/later.txt")
        #expect(waitUntil { listed("projects").contains("web/later.txt") })
        #expect(!listed("projects").contains { $0.contains("node_modules") || $0.contains("scratch") })

        // Changing an ignore file re-applies it to its folder.
        projects.write("web/.searchlightignore", "scratch/\n*.js\n")
        #expect(waitUntil { listed("projects") == ["web/index.html", "web/later.txt", "web/package.json"] },
                "\(listed("projects"))")
        let status = try Searchlight.run(["status"], index: index).output
        #expect(status.contains("\ndocuments\n") && status.contains("\nprojects\n"), "\(status)")
    }

    /// By default every thread of a watch runs at nice 19 in the idle I/O class. Checked on empty
    /// roots and without waiting for the watch to say anything: on a crowded machine an idle
    /// watch may not get to index for minutes, which is what idle priority is for.
    @Test func runsAtIdlePriorityByDefault() throws {
        let (watch, _) = try startWatch(priority: [], waitForRoots: false)
        defer {
            // A watch at idle priority may wait long for a CPU to act on SIGTERM.
            kill(watch.processIdentifier, SIGTERM)
            watch.waitUntilExit(timeout: 300)
        }
        // Every thread runs at nice 19 in the idle I/O class (a thread libdispatch started
        // at its own priority is brought down within the watch's upkeep period).
        func niceValues() -> [String] {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(watch.processIdentifier)/task")) ?? []
            return tasks.compactMap { task in
                guard let stat = try? String(contentsOfFile: "/proc/\(watch.processIdentifier)/task/\(task)/stat", encoding: .utf8),
                      let end = stat.range(of: ")", options: .backwards) else { return nil }
                // Fields after the command's closing parenthesis: state is field 3, nice field 19.
                return String(stat[end.upperBound...].split(separator: " ")[16])
            }
        }
        #expect(waitUntil(timeout: 300) { let values = niceValues(); return !values.isEmpty && values.allSatisfy { $0 == "19" } },
                "\(niceValues())")
        func ioClass() -> String {
            (try? Searchlight.run([], prefix: ["/usr/bin/env", "ionice", "-p", "\(watch.processIdentifier)"]).output) ?? ""
        }
        #expect(waitUntil(timeout: 300) { ioClass().hasPrefix("idle") }, "\(ioClass())")
    }

    @Test func hiddenFilesAreFollowedWhenAskedButSecretsNever() throws {
        let (watch, _) = try startWatch(arguments: ["--hidden"])
        defer { stop(watch) }
        documents.write(".config/app.conf")
        documents.write(".bashrc")
        documents.write(".env", "TOKEN=1\n")
        documents.write(".ssh/id_ed25519")
        documents.write("visible.txt")
        #expect(waitUntil { listed("documents") == [".bashrc", ".config/app.conf", "visible.txt"] }, "\(listed("documents"))")
    }

    @Test func pauseQueuesChangesAndResumeCatchesUp() throws {
        documents.write("a.txt")
        let (watch, log) = try startWatch()
        defer { stop(watch) }
        let paused = try Searchlight.run(["pause"], index: index)
        #expect(paused.status == 0, "\(paused.stderr)")
        #expect(paused.output.contains("paused the watch of documents"), "\(paused.output)")
        #expect(waitUntil { (try? String(contentsOfFile: log, encoding: .utf8))?.contains("paused") == true })
        #expect(waitUntil { (try? Searchlight.run(["status"], index: index).output)?.contains("paused (searchlight resume)") == true })
        documents.write("b.txt")
        projects.write("c.txt")
        // Nothing is processed while paused: once both watchers report the events as read
        // and pending, the index still has not changed.
        #expect(waitUntil { pendingChanges(in: "documents") > 0 && pendingChanges(in: "projects") > 0 })
        #expect(listed("documents") == ["a.txt"])
        #expect(listed("projects") == [])
        let resumed = try Searchlight.run(["resume"], index: index)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(waitUntil { listed("documents") == ["a.txt", "b.txt"] && listed("projects") == ["c.txt"] })
        #expect(!(try Searchlight.run(["status"], index: index).output.contains("paused (")))
    }

    @Test func pauseWithoutAWatchFails() throws {
        documents.write("a.txt")
        #expect(try Searchlight.run(["scan", "--config", configFile, "--no-thumbnails"] + Searchlight.busyMachine, index: index).status == 0)
        let result = try Searchlight.run(["pause"], index: index)
        #expect(result.status == 1)
        #expect(result.stderr.contains("no watch is running"))
    }

    @Test func pressureMakesTheWatchBackOffAndSaySoInStatus() throws {
        let fixture = TemporaryTree("citizen-pressure")
        fixture.write("proc/pressure/cpu", "some avg10=99.00 avg60=90.00 avg300=80.00 total=1\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")
        fixture.write("proc/pressure/io", "some avg10=0.00 avg60=0.00 avg300=0.00 total=1\n")
        let (watch, _) = try startWatch(environment: ["SEARCHLIGHT_PRESSURE_ROOT": fixture.path])
        defer { stop(watch) }
        #expect(waitUntil {
            (try? Searchlight.run(["status"], index: index).output)?.contains("backing off (cpu pressure 99%)") == true
        })
        // Still indexing, in longer windows, by name: what is inside waits.
        func found(_ word: String) -> [String] {
            (try? Searchlight.run(["search", word, "--domain", "documents"], index: index).paths(under: documents.path)) ?? []
        }
        documents.write("slow.txt", "a quixotic zeppelin\n")
        #expect(waitUntil { listed("documents") == ["slow.txt"] })
        #expect(found("slow") == ["slow.txt"])
        #expect(found("zeppelin") == [])
        fixture.write("proc/pressure/cpu", "some avg10=1.00 avg60=1.00 avg300=1.00 total=1\n")
        #expect(waitUntil { (try? Searchlight.run(["status"], index: index).output)?.contains("backing off") == false })
        // Once the backoff ends, the file's content is read.
        #expect(waitUntil { found("zeppelin") == ["slow.txt"] }, "\(found("zeppelin"))")
    }
}
