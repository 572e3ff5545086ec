package dev.ssdpulse.streams.steadystate;

import dev.ssdpulse.streams.codec.BinaryReader;
import dev.ssdpulse.streams.codec.BinaryWriter;

/** Binary form of a (nullable) {@link SteadyStateResult} inside detector states. */
public final class SteadyStateResultCodec {
    private SteadyStateResultCodec() {}

    public static void write(BinaryWriter out, SteadyStateResult r) {
        out.writeBoolean(r != null);
        if (r == null) {
            return;
        }
        out.writeByte(r.method().ordinal())
                .writeBoolean(r.reached())
                .writeBoolean(r.finalVerdict())
                .writeVarLong(r.decidedAtNs())
                .writeVarLong(r.windowStartNs())
                .writeVarLong(r.windowEndNs())
                .writeVarLong(r.roundsOrSamples())
                .writeDouble(r.mean())
                .writeDouble(r.range())
                .writeDouble(r.slope())
                .writeDouble(r.limit())
                .writeString(r.criteria())
                .writeString(r.explanation());
        out.writeByte(r.steadyNow() == null ? 2 : r.steadyNow() ? 1 : 0);
        out.writeNullableLong(r.reachedAtNs()).writeNullableLong(r.lostAtNs());
    }

    public static SteadyStateResult read(BinaryReader in) {
        if (!in.readBoolean("result present")) {
            return null;
        }
        int method = in.readByte("method");
        if (method >= SteadyStateMethod.values().length) {
            throw new IllegalArgumentException("steady-state result: unknown method " + method);
        }
        boolean reached = in.readBoolean("reached");
        boolean finalVerdict = in.readBoolean("finalVerdict");
        long decidedAtNs = in.readVarLong("decidedAtNs");
        long windowStartNs = in.readVarLong("windowStartNs");
        long windowEndNs = in.readVarLong("windowEndNs");
        int roundsOrSamples = (int) in.readVarLong("roundsOrSamples");
        double mean = in.readDouble("mean");
        double range = in.readDouble("range");
        double slope = in.readDouble("slope");
        double limit = in.readDouble("limit");
        String criteria = in.readString("criteria");
        String explanation = in.readString("explanation");
        int steadyNow = in.readByte("steadyNow");
        return new SteadyStateResult(
                SteadyStateMethod.values()[method],
                reached,
                finalVerdict,
                decidedAtNs,
                windowStartNs,
                windowEndNs,
                roundsOrSamples,
                mean,
                range,
                slope,
                limit,
                criteria,
                explanation,
                steadyNow == 2 ? null : steadyNow == 1,
                in.readNullableLong("reachedAtNs"),
                in.readNullableLong("lostAtNs"));
    }
}
