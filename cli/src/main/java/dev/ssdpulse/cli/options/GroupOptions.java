package dev.ssdpulse.cli.options;

import dev.ssdpulse.cli.command.UserInputException;
import dev.ssdpulse.schemas.avro.RunStarted;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/**
 * {@code --group NAME [--member ID]} on the producers: the run is a member of a run group, one logical test that
 * several producers (hosts, devices, jobs) publish each as a run of its own. The analytics keep each member's results
 * and add the group's, merged exactly across the members.
 */
public final class GroupOptions {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    @Option(
            names = "--group",
            paramLabel = "NAME",
            description = "Publish the run as a member of run group NAME: one test across hosts, devices or jobs, whose"
                    + " members the analytics merge (per window and overall; GET /api/groups/NAME).")
    String group;

    @Option(
            names = "--member",
            paramLabel = "ID",
            description = "This run's id within its --group (default: the host name and the device).")
    String member;

    /** True when the run is a group member. */
    public boolean grouped() {
        return group != null;
    }

    /** Refuses a malformed group name (wherever a command takes one) in one line. */
    public static void checkName(String group) {
        if (!NAME.matcher(group).matches()) {
            throw new UserInputException("--group '" + group + "' must be 1-128 characters of letters, digits, '.',"
                    + " '_' or '-', starting with a letter or digit");
        }
    }

    /** Refuses --member without --group, a malformed name or id, and a group for a run analysed --offline. */
    public void validate(boolean offline) {
        if (group == null) {
            if (member != null) {
                throw new UserInputException("--member " + member + " needs --group NAME: a member of which group?");
            }
            return;
        }
        checkName(group);
        if (member != null
                && (member.isBlank() || member.length() > 128 || member.chars().anyMatch(c -> c < 0x20))) {
            throw new UserInputException("--member must be 1-128 printable characters, got '" + member + "'");
        }
        if (offline) {
            throw new UserInputException("--group needs the run streamed to Kafka: the analytics merge the members,"
                    + " --offline analyses one run alone");
        }
    }

    /**
     * The run's RunStarted as a member of the group; unchanged without --group.
     *
     * @param device what the default member id names after the host: the device, drive preset or log the run is on
     */
    public RunStarted apply(RunStarted started, String device) {
        if (group == null) {
            return started;
        }
        String host = started.getHost() == null ? null : started.getHost().getHostname();
        String id = member != null ? member : (host == null ? "unknown-host" : host) + " " + device;
        return RunStarted.newBuilder(started).setGroup(group).setMember(id).build();
    }
}
