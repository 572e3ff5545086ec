/**
 * REPLAY phases: a workload's traces scanned before the run and checked against the target
 * ({@link dev.ssdpulse.producer.replay.ReplayTraces}), placed in the phase's span (shift, wrap or as recorded),
 * and streamed as a request generator ({@link dev.ssdpulse.producer.replay.ReplayGenerator}) that the device runner
 * and the simulator's host drive alike. With recorded timing each request is due at its recorded time relative to
 * the trace's first I/O, divided by the time scale ({@link dev.ssdpulse.producer.io.IoRequest#dueNs}); the driver
 * issues it then, or as soon as the queue-depth cap allows, and reports the lag, which
 * {@link dev.ssdpulse.producer.replay.IssueLag} counts (late above
 * {@link dev.ssdpulse.producer.replay.ReplayGenerator#LATE_THRESHOLD_NS}). With fast timing the requests go back to
 * back in recorded order, at most the queue depth in flight (fio's {@code replay_no_stall}). The phase's
 * {@link dev.ssdpulse.producer.replay.ReplayResult} travels in RunFinished; the analysis gives the phase its load
 * time.
 */
package dev.ssdpulse.producer.replay;
