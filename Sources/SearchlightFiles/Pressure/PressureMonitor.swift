import Foundation

/// Tells whether the machine is busy or on battery, so that the indexer can back off
/// (Docs/Contract.md#configuration-and-good-citizenship): Linux pressure stall information (`/proc/pressure/cpu` and `io`, the share of
/// the last ten seconds in which some task waited) and the power supplies
/// (`/sys/class/power_supply/*/type` and `online`).
///
/// Reading costs a few small file reads; a watcher samples it every few seconds. The roots
/// of `/proc` and `/sys` can be replaced, for tests on fixture files.
///
/// ```swift
/// let monitor = PressureMonitor()
/// let reading = monitor.read()
/// if let reason = reading.backoffReason(thresholds: .init()) { print("backing off: \(reason)") }
/// ```
///
/// A value with no state: any thread may read it at any time. ``PressureSampler`` reads it
/// periodically and compares the readings with its ``Thresholds``.
public struct PressureMonitor: Sendable {
    /// The folder standing for `/proc`.
    public var procRoot: String
    /// The folder standing for `/sys`.
    public var sysRoot: String

    /// A monitor of this machine, or of fixture folders standing for `/proc` and `/sys` (tests).
    public init(procRoot: String = "/proc", sysRoot: String = "/sys") {
        self.procRoot = procRoot
        self.sysRoot = sysRoot
    }

    /// When pressure is high enough to back off, in percent of the last ten seconds.
    public struct Thresholds: Sendable, Equatable {
        /// CPU "some avg10" at or above which the indexer backs off.
        public var cpu: Double
        /// I/O "some avg10" at or above which the indexer backs off.
        public var io: Double
        /// Back off while on battery.
        public var onBattery: Bool

        /// The configuration's defaults: CPU at 80 %, I/O at 40 %, and on battery.
        public init(cpu: Double = 80, io: Double = 40, onBattery: Bool = true) {
            self.cpu = cpu
            self.io = io
            self.onBattery = onBattery
        }
    }

    /// One sample.
    public struct Reading: Sendable, Equatable {
        /// CPU "some avg10" in percent; `nil` without PSI (an old kernel, or PSI disabled).
        public var cpu: Double?
        /// I/O "some avg10" in percent; `nil` without PSI.
        public var io: Double?
        /// Whether the machine runs on battery: a battery is present and no mains supply is online.
        public var onBattery: Bool

        /// A reading as ``PressureMonitor/read()`` takes it (tests build their own).
        public init(cpu: Double?, io: Double?, onBattery: Bool) {
            self.cpu = cpu
            self.io = io
            self.onBattery = onBattery
        }

        /// Why to back off under `thresholds` (`"cpu pressure 92%"`, `"on battery"`), or `nil`.
        public func backoffReason(thresholds: Thresholds) -> String? {
            var reasons: [String] = []
            if let cpu, cpu >= thresholds.cpu { reasons.append("cpu pressure \(Int(cpu.rounded()))%") }
            if let io, io >= thresholds.io { reasons.append("io pressure \(Int(io.rounded()))%") }
            if onBattery && thresholds.onBattery { reasons.append("on battery") }
            return reasons.isEmpty ? nil : reasons.joined(separator: ", ")
        }
    }

    /// Reads the pressure files and the power supplies now.
    ///
    /// Never fails: a file that cannot be read gives `nil` (or not on battery), so a machine
    /// without PSI or power supplies never backs off for them.
    public func read() -> Reading {
        Reading(cpu: Self.someAverage10(in: contents(procRoot + "/pressure/cpu")),
                io: Self.someAverage10(in: contents(procRoot + "/pressure/io")),
                onBattery: onBattery())
    }

    /// The `avg10` of the `some` line of a pressure file:
    /// `some avg10=1.05 avg60=1.19 avg300=1.84 total=38376712`.
    ///
    /// - Parameter text: The file's contents; `nil` when it could not be read.
    /// - Returns: The percentage, or `nil` when there is no such field.
    public static func someAverage10(in text: String?) -> Double? {
        guard let text else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("some ") {
            for field in line.split(separator: " ") where field.hasPrefix("avg10=") {
                return Double(field.dropFirst("avg10=".count))
            }
        }
        return nil
    }

    /// On battery when a battery is present and no mains supply (`type` Mains, USB or
    /// USB_PD…, anything but Battery) is online. A desktop without supplies, or a laptop
    /// whose battery reports `Charging` or `Full`, is not on battery.
    func onBattery() -> Bool {
        let folder = sysRoot + "/class/power_supply"
        guard let supplies = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return false }
        var batteryDischarging = false
        var hasBattery = false
        for supply in supplies {
            let path = folder + "/" + supply
            let type = contents(path + "/type")?.trimmingCharacters(in: .whitespacesAndNewlines)
            if type == "Battery" {
                // A peripheral's battery (a mouse) has scope "Device": not the machine's.
                if contents(path + "/scope")?.trimmingCharacters(in: .whitespacesAndNewlines) == "Device" { continue }
                hasBattery = true
                if contents(path + "/status")?.trimmingCharacters(in: .whitespacesAndNewlines) == "Discharging" {
                    batteryDischarging = true
                }
            } else if contents(path + "/online")?.trimmingCharacters(in: .whitespacesAndNewlines) == "1" {
                return false
            }
        }
        return hasBattery && batteryDischarging
    }

    private func contents(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }
}
