package dev.ssdpulse.streams.steadystate;

import dev.ssdpulse.streams.codec.BinaryReader;
import dev.ssdpulse.streams.codec.BinaryWriter;

/** Binary form of a (nullable) {@link SteadyStateResult} inside detector states. */
public final class SteadyStateResultCodec {
    private SteadyStateResultCodec() {
    }

    public static void write(BinaryWriter out, SteadyStateResult r) {
        out.writeBoolean(r != null);
        if (r == null) {
            return;
        }
        out.writeByte(r.method().ordinal()).writeBoolean(r.reached()).writeBoolean(r.finalVerdict())
                .writeVarLong(r.decidedAtNs()).writeVarLong(r.windowStartNs()).writeVarLong(r.windowEndNs())
                .writeVarLong(r.roundsOrSamples()).writeDouble(r.mean()).writeDouble(r.range()).writeDouble(r.slope())
                .writeDouble(r.limit()).writeString(r.criteria()).writeString(r.explanation());
    }

    public static SteadyStateResult read(BinaryReader in) {
        if (!in.readBoolean("result present")) {
            return null;
        }
        int method = in.readByte("method");
        if (method >= SteadyStateMethod.values().length) {
            throw new IllegalArgumentException("steady-state result: unknown method " + method);
        }
        return new SteadyStateResult(SteadyStateMethod.values()[method], in.readBoolean("reached"),
                in.readBoolean("finalVerdict"), in.readVarLong("decidedAtNs"), in.readVarLong("windowStartNs"),
                in.readVarLong("windowEndNs"), (int) in.readVarLong("roundsOrSamples"), in.readDouble("mean"),
                in.readDouble("range"), in.readDouble("slope"), in.readDouble("limit"), in.readString("criteria"),
                in.readString("explanation"));
    }
}
