package dev.ssdpulse.producer.integrity;

import java.io.IOException;

/**
 * What a run's log says happened, as many times as the verification needs to read it (it reads it two or three
 * times rather than holding it: a long run logs billions of I/Os). The device path reads the run's I/O topic;
 * a simulated drive can hand over its own record of the run.
 */
public interface RunLog {
    /** Hands every logged I/O of the run to {@code visitor}, in log order (per worker, completion order). */
    void stream(Visitor visitor) throws IOException;

    /** The logged I/Os; times are ns since the run's start, status 0 for success. */
    interface Visitor {
        /**
         * A write; {@code sequence} is what it stamped into its units ({@code IoFlags.NO_SEQUENCE} for an unstamped
         * write), {@code flags} its IoFlags (FUA).
         */
        void write(
                int worker,
                int phaseIndex,
                long sequence,
                long offsetBytes,
                int sizeBytes,
                long submitNs,
                long completeNs,
                int flags,
                int status);

        /** A FLUSH: writes that completed before it was submitted are durable once it completes. */
        void flush(int worker, int phaseIndex, long submitNs, long completeNs, int status);

        /** A TRIM: the content of its range is undefined afterwards. */
        void trim(
                int worker,
                int phaseIndex,
                long offsetBytes,
                long sizeBytes,
                long submitNs,
                long completeNs,
                int status);

        /** Any other I/O (a read): only its completion time matters, for how far the log covers the run. */
        void other(int worker, int phaseIndex, long completeNs);
    }
}
