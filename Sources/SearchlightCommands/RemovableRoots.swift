import Foundation
import SearchlightFiles
import SystemCalls

extension Configuration {
    /// The folders removable drives are mounted in: `[removable] places`, else UDisks2's
    /// `/media/$USER` and `/run/media/$USER`.
    var removablePlacesInEffect: [String] {
        if !removablePlaces.value.isEmpty { return removablePlaces.value }
        let environment = ProcessInfo.processInfo.environment
        let user = environment["USER"].flatMap { $0.isEmpty ? nil : $0 }
            ?? SystemCall.effectiveUserName ?? "root"
        return RemovableDrives.defaultPlaces(user: user)
    }

    /// The removable drives of ``removablePlacesInEffect``, but those the configured roots index.
    var removableDrives: RemovableDrives { RemovableDrives(places: removablePlacesInEffect, roots: roots.map(\.path)) }
}

/// The removable drives `scan` and `watch` index without a folder, when `[removable] index`
/// is on (Docs/Contract.md#removable-drives): every drive the index knows (its items kept
/// while it is away) and every drive mounted in the places now, each a root of its own
/// domain; a drive away for longer than `keep-offline-days` is forgotten first.
enum RemovableRoots {
    /// Forgets the drives away for too long, then lists the roots of the others and of the
    /// drives mounted now (a known drive at the place it is mounted now).
    static func prepare(_ configuration: Configuration, index: any FileIndexWriter) throws -> [Configuration.Root] {
        forgetExpired(keepOfflineDays: configuration.keepOfflineDays.value, index: index)
        let known = try CommandFailure.wrap { try index.localRoots() }.filter { RemovableDrives.isRemovable(domain: $0.key) }
        let mounted = (try? MountTable.read()).map(configuration.removableDrives.mounted(in:)) ?? []
        var roots = known.sorted { $0.key < $1.key }.map { domain, root in
            Configuration.Root(path: mounted.first { $0.domain == domain }?.path ?? root, domain: domain,
                               origin: .option("[removable]"))
        }
        for drive in mounted where known[drive.domain] == nil {
            StandardError.write("searchlight: a new removable drive: \(drive.volume.name) at \(drive.path), indexed as \(drive.domain)\n")
            roots.append(Configuration.Root(path: drive.path, domain: drive.domain, origin: .option("[removable]")))
        }
        return roots
    }

    /// Forgets every drive away for longer than `[removable] keep-offline-days`, with a line
    /// each; returns their domains. A failure is said and leaves them.
    @discardableResult
    static func forgetExpired(keepOfflineDays days: Int, index: any FileIndexWriter, now: Date = Date()) -> [String] {
        do {
            let expired = try index.removableDomains(offlineLongerThan: days, now: now)
            guard !expired.isEmpty else { return [] }
            let counts = try index.statistics().domains
            try index.dropRemovableDomains(expired.map(\.domain))
            for (domain, state) in expired {
                let count = counts.first { $0.name == domain }?.itemCount ?? 0
                let since = state.offlineSince.map(RootPlace.describe) ?? "?"
                StandardError.write("""
                    searchlight: forgot the removable drive \(state.volume?.name ?? domain) (\(domain), \(count) items): \
                    not connected since \(since), more than \(days) days ([removable] keep-offline-days)

                    """)
            }
            return expired.map(\.domain)
        } catch {
            StandardError.write("searchlight: warning: cannot forget the removable drives away too long: \(error)\n")
            return []
        }
    }
}
