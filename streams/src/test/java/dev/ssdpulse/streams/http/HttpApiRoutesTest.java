package dev.ssdpulse.streams.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** API.md's endpoint table is the documentation of the routes: both must name the same (method, path) pairs. */
class HttpApiRoutesTest {
    /** "| GET | `/api/runs/{id}/series?op=&from=&to=` | ..." -> "GET /api/runs/{id}/series" */
    private static final Pattern ROW = Pattern.compile("^\\| ([A-Z]+) \\| `([^`?]+)[^`]*` \\|");

    @Test
    void everyRouteIsDocumentedAndEveryDocumentedEndpointIsRouted() throws IOException {
        List<String> documented = documentedEndpoints();
        try (HttpApiServer server = new HttpApiServer(new InMemoryRunViews(), HttpApiConfig.localhost(0))) {
            List<String> routes = server.javalin().unsafe.internalRouter.allHttpHandlers().stream()
                    .map(e -> e.endpoint.method + " " + e.endpoint.path)
                    .toList();
            List<String> gets =
                    routes.stream().filter(r -> r.startsWith("GET ")).toList();
            assertThat(documented).as("API.md's table").doesNotHaveDuplicates().isNotEmpty();
            assertThat(gets).as("GET routes vs API.md").containsExactlyInAnyOrderElementsOf(documented);
            // the table lists GET only; HEAD is the same route without a body (API.md's preamble). Javalin lists
            // before-handlers too: the guard of every path
            assertThat(routes)
                    .as("every route but GET is its HEAD twin or the guard")
                    .filteredOn(r -> !r.startsWith("BEFORE "))
                    .filteredOn(r -> !r.startsWith("GET "))
                    .containsExactlyInAnyOrderElementsOf(
                            gets.stream().map(g -> "HEAD" + g.substring(3)).toList());
        }
    }

    private static List<String> documentedEndpoints() throws IOException {
        List<String> out = new ArrayList<>();
        try (InputStream in = HttpApiRoutesTest.class.getClassLoader().getResourceAsStream("dashboard/API.md")) {
            assertThat(in).as("dashboard/API.md on the classpath").isNotNull();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                Matcher m = ROW.matcher(line);
                if (m.find()) {
                    out.add(m.group(1) + " " + m.group(2));
                }
            }
        }
        return out;
    }
}
