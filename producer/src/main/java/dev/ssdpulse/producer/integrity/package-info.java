/**
 * Power-loss verification: what a stamped write puts on the target ({@link dev.ssdpulse.producer.integrity.UnitStamp})
 * and the one verification core ({@link dev.ssdpulse.producer.integrity.Verification}) that checks a target's units
 * against a run's log after a power cut.
 *
 * <p>The core depends on neither Kafka nor a device: the log comes through {@link
 * dev.ssdpulse.producer.integrity.RunLog} (the device path reads the run's I/O topic), the content through {@link
 * dev.ssdpulse.producer.integrity.UnitContents} (the device path reads the target back with the asynchronous engine,
 * {@code device.ReadBack}; a simulated drive can report the stamp its model holds in each unit). Each unit the log
 * says was written is {@link dev.ssdpulse.producer.integrity.UnitClass intact, lost, torn, reverted or unlogged}, and
 * lost or not under each {@link dev.ssdpulse.producer.integrity.DurabilityModel}.
 */
package dev.ssdpulse.producer.integrity;
