/**
 * Workloads: IOMeter/fio-style specs with phases, their file format, presets and request generators.
 *
 * <h2>File format (YAML, or JSON when the file name ends in .json)</h2>
 * <pre>
 * name: my-test                      # required
 * description: one line
 * seed: 1                            # default 1
 * targetSize: 160GB                  # optional: size of a file target
 * phases:                            # run in order
 *   - name: purge                    # names unique among siblings; no '/' or '#'
 *     kind: PURGE                    # PURGE | PRECONDITION_INDEPENDENT | PRECONDITION_DEPENDENT | TEST | IDLE
 *                                    # | FILL | OTHER | REPLAY
 *   - name: test
 *     kind: TEST
 *     accessSpecs:                   # IOMeter lines; percentOfSpec adds up to 100
 *       - {transferSize: 4k, percentOfSpec: 100, percentRead: 70, percentRandom: 100,
 *          alignment: 4KiB, delay: 0ms, burstLength: 1}
 *     queueDepth: 32                 # per worker, default 1
 *     workers: 1                     # default 1
 *     spanSharing: SHARED            # SHARED | SPLIT (see SpanSharing)
 *     span: {offset: 0, size: "100%"}   # amounts: 24GB, 100%, 100%-8GB, 104GB+24GB
 *     duration: 20m                  # and/or totalBytes; whichever ends first
 *     totalBytes: "200%"             # of the span (or absolute: 64GiB)
 *     ramp: 30s
 *     rateLimitIops: 5000            # whole phase
 *     distribution: uniform          # uniform | zipf:THETA
 *     dataPattern: incompressible    # incompressible | compressible:RATIO | zeros
 *     trim: false                    # true: the write share is issued as TRIM
 *     repeat: 1                      # run the phase N times in a row
 *   - name: boot                     # a recorded block trace issued again (PhaseKind.REPLAY)
 *     kind: REPLAY
 *     trace: traces/boot.iolog       # relative to the workload file (a preset's: shipped beside it)
 *     format: auto                   # auto | fio-iolog (v2, v3) | blkparse | msr (IOTTA MSR Cambridge CSV)
 *     timing: recorded               # recorded: at its recorded times / timeScale; fast: back to back, in order
 *     timeScale: 1.0                 # recorded rate multiplier, fio's replay_time_scale / 100 (2 = twice as fast)
 *     remap: shift                   # shift | wrap | none: where the trace's offsets land in the span
 *     queueDepth: 32                 # cap of I/Os in flight (default 32 for REPLAY); one worker
 *     span: {offset: 0, size: "100%"}   # the region the trace is placed in; duration: optional cut-off
 *   - name: round                    # a block: repeated group of phases (nestable)
 *     repeat: 25
 *     phases: [ ... ]
 * </pre>
 * Sizes: {@code k/m/g/t} and {@code KiB/MiB/GiB/TiB} are binary, {@code kB/MB/GB/TB} decimal, a bare number
 * is bytes; durations: {@code ns, us, ms, s, m/min, h}, a bare number is seconds (see {@link
 * dev.ssdpulse.producer.workload.Units}). {@code ${name:default}} placeholders make any value a parameter
 * ({@code --set name=value}). Unknown fields, duplicate keys, bad units and out-of-range values are all
 * reported at once as "file: field path: why".
 */
package dev.ssdpulse.producer.workload;
