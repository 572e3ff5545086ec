package dev.ssdpulse.streams.report.html;

import static dev.ssdpulse.streams.report.ReportFormat.grouped;

import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.PhaseSpec;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.streams.report.ReportTables;
import dev.ssdpulse.streams.report.ReportTables.SummaryRow;
import java.util.List;

/**
 * What a comparison of runs compares: each run's first TEST phase (the measurement, after purge, fill and
 * preconditioning, as the articles publish it), or the whole run when it has none.
 *
 * @param phase null: the whole run
 */
record Scope(RunSummary summary, PhaseSummary phase, long startNs, long endNs) {
    static Scope of(RunSummary s) {
        PhaseSummary test = firstTest(s);
        return test == null
                ? new Scope(s, null, 0, s.getDurationNs())
                : new Scope(s, test, test.getStartNs(), test.getEndNs());
    }

    static PhaseSummary firstTest(RunSummary s) {
        return s.getPhases().stream()
                .filter(p -> p.getKind() == PhaseKind.TEST)
                .findFirst()
                .orElse(null);
    }

    /** The phase's spec in the run's workload (null: whole run, or no RunStarted). */
    PhaseSpec spec(RunStarted started) {
        if (phase == null || started == null) {
            return null;
        }
        return started.getWorkload().getPhases().stream()
                .filter(p -> p.getIndex() == phase.getPhaseIndex())
                .findFirst()
                .orElse(null);
    }

    /** The summary's rows of the scope, one per op. */
    List<SummaryRow> rows() {
        return ReportTables.summaryRows(summary, phase);
    }

    /** The phase index of steady-state verdicts about the scope (-1: the whole run). */
    int phaseIndex() {
        return phase == null ? -1 : phase.getPhaseIndex();
    }

    /** "phase 2 'random-write' (TEST), 5,000.0 s" or "whole run, 240.0 s". */
    String text() {
        String length = grouped((endNs - startNs) / 1e9, 1) + " s";
        return phase == null
                ? "whole run, " + length
                : "phase " + phase.getPhaseIndex() + " '" + phase.getName() + "' (" + phase.getKind() + "), " + length;
    }
}
