import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

@Suite("Pressure monitor", .ownThread)
struct PressureMonitorTests {
    let proc = TemporaryTree("proc")
    let sys = TemporaryTree("sys")
    var monitor: PressureMonitor { PressureMonitor(procRoot: proc.path, sysRoot: sys.path) }

    func pressure(cpu: String, io: String) {
        proc.write("pressure/cpu", "some avg10=\(cpu) avg60=10.00 avg300=5.00 total=1007648813\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")
        proc.write("pressure/io", "some avg10=\(io) avg60=1.19 avg300=1.84 total=38376712\nfull avg10=9.00 avg60=0.00 avg300=0.05 total=13273868\n")
    }

    func supply(_ name: String, type: String, online: String? = nil, status: String? = nil, scope: String? = nil) {
        sys.write("class/power_supply/\(name)/type", type + "\n")
        if let online { sys.write("class/power_supply/\(name)/online", online + "\n") }
        if let status { sys.write("class/power_supply/\(name)/status", status + "\n") }
        if let scope { sys.write("class/power_supply/\(name)/scope", scope + "\n") }
    }

    @Test func readsTheSomeAverageOfTheLastTenSeconds() {
        pressure(cpu: "98.48", io: "1.05")
        let reading = monitor.read()
        #expect(reading == PressureMonitor.Reading(cpu: 98.48, io: 1.05, onBattery: false))
        #expect(reading.backoffReason(thresholds: .init()) == "cpu pressure 98%")
        #expect(reading.backoffReason(thresholds: .init(cpu: 99)) == nil)
        pressure(cpu: "0.00", io: "55.50")
        #expect(monitor.read().backoffReason(thresholds: .init()) == "io pressure 56%")
    }

    @Test func withoutPSIThereIsNoPressure() {
        let reading = monitor.read()
        #expect(reading.cpu == nil && reading.io == nil && !reading.onBattery)
        #expect(reading.backoffReason(thresholds: .init()) == nil)
        #expect(PressureMonitor.someAverage10(in: "garbage\n") == nil)
    }

    @Test func aLaptopUnpluggedIsOnBatteryAndPluggedInIsNot() {
        supply("AC", type: "Mains", online: "0")
        supply("BAT0", type: "Battery", status: "Discharging")
        supply("hidpp_battery_0", type: "Battery", status: "Discharging", scope: "Device")
        #expect(monitor.read().onBattery)
        #expect(monitor.read().backoffReason(thresholds: .init()) == "on battery")
        #expect(monitor.read().backoffReason(thresholds: .init(onBattery: false)) == nil)
        supply("AC", type: "Mains", online: "1")
        #expect(!monitor.read().onBattery)
    }

    @Test func aMouseBatteryOrAChargingBatteryIsNotTheMachineOnBattery() {
        supply("hidpp_battery_0", type: "Battery", status: "Discharging", scope: "Device")
        #expect(!monitor.read().onBattery)
        supply("BAT0", type: "Battery", status: "Charging")
        #expect(!monitor.read().onBattery)
        supply("ucsi-source-psy-USBC000:001", type: "USB", online: "1")
        supply("BAT0", type: "Battery", status: "Discharging")
        #expect(!monitor.read().onBattery, "a USB-C charger online is mains power")
    }
}
