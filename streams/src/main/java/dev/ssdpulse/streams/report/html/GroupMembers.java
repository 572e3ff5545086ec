package dev.ssdpulse.streams.report.html;

import static dev.ssdpulse.streams.report.Table.escapeHtml;

import dev.ssdpulse.schemas.avro.GroupMember;
import dev.ssdpulse.schemas.avro.RunGroup;
import dev.ssdpulse.streams.report.Column;
import dev.ssdpulse.streams.report.Table;
import java.util.List;
import java.util.Set;

/**
 * A run group's members in its section of the report: each member's id, host, run, how it ended, where it started
 * and ended on the group's time axis (s since the group's first member started) and its share of the group's I/Os
 * and bytes, from the group summary's {@code group} record. The group's figures above it are its members' I/Os
 * merged (histograms merged, never percentiles averaged); a member that did not complete makes the group PARTIAL.
 */
final class GroupMembers {
    static final Table<GroupMember> MEMBERS = new Table<>(List.of(
            Column.of("member", m -> m.getMember().toString()),
            Column.of("host", m -> m.getHost() == null ? null : m.getHost().toString()),
            Column.of("run_id", m -> m.getRunId().toString()),
            Column.of(
                    "status",
                    m -> m.getStatus() == null ? "RUNNING" : m.getStatus().name()),
            Column.of("start_s", m -> m.getStartOffsetNs() / 1e9, 1),
            Column.of("end_s", m -> m.getEndNs() == null ? null : m.getEndNs() / 1e9, 1),
            Column.of("io_count", GroupMember::getIoCount),
            Column.of("io_share_pct", m -> m.getIoShare() * 100, 1),
            Column.of("bytes_share_pct", m -> m.getBytesShare() * 100, 1),
            Column.of(
                    "reason", m -> m.getReason() == null ? null : m.getReason().toString())));

    private GroupMembers() {}

    /** @param inReport the run ids that have a section of their own in this report (linked to it) */
    static void html(StringBuilder b, RunGroup group, Set<String> inReport) {
        b.append("<h3>Members</h3>\n<p class=\"note\">")
                .append(group.getMembers().size())
                .append(group.getMembers().size() == 1 ? " member" : " members")
                .append("; times on the group's axis, s since its first member started. The group's figures are"
                        + " its members' I/Os merged: latency histograms merged exactly, never percentiles"
                        + " averaged.</p>\n<div class=\"table-wrap\">")
                .append(MEMBERS.html(group.getMembers()))
                .append("</div>\n");
        List<String> linked = group.getMembers().stream()
                .map(m -> m.getRunId().toString())
                .filter(inReport::contains)
                .toList();
        if (!linked.isEmpty()) {
            b.append("<p class=\"note\">");
            for (String id : linked) {
                b.append("<a href=\"#run-")
                        .append(escapeHtml(id))
                        .append("\">")
                        .append(escapeHtml(id))
                        .append("</a> ");
            }
            b.append("</p>\n");
        }
    }
}
