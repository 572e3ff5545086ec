package dev.ssdpulse.schemas.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small HTTP server speaking the Confluent Schema Registry endpoints ssdpulse uses, backed by an
 * {@link InMemorySchemaRegistryClient}. Records every request so tests can count HTTP calls and inspect
 * headers; canned error answers can be forced per path.
 */
public final class ConfluentApiTestServer implements AutoCloseable {
    /** One received request. */
    public record Request(String method, String path, String contentType, String authorization, String body) {
    }

    private final ObjectMapper json = new ObjectMapper();
    private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
    private final HttpServer server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Map<String, String[]> forcedAnswers = new ConcurrentHashMap<>();
    private final AtomicInteger count = new AtomicInteger();

    public ConfluentApiTestServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public InMemorySchemaRegistryClient registry() {
        return registry;
    }

    public List<Request> requests() {
        return List.copyOf(requests);
    }

    public int requestCount() {
        return count.get();
    }

    /** Answers every request to {@code path} with this status and raw body. */
    public void force(String path, int status, String body) {
        forcedAnswers.put(path, new String[]{Integer.toString(status), body});
    }

    private void handle(HttpExchange exchange) throws IOException {
        count.incrementAndGet();
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getRawPath();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        requests.add(new Request(method, path, exchange.getRequestHeaders().getFirst("Content-Type"),
                exchange.getRequestHeaders().getFirst("Authorization"), body));
        String[] forced = forcedAnswers.get(path);
        if (forced != null) {
            answer(exchange, Integer.parseInt(forced[0]), forced[1]);
            return;
        }
        try {
            answer(exchange, 200, route(method, path.split("/"), body).toString());
        } catch (SchemaRegistryException e) {
            ObjectNode error = json.createObjectNode();
            error.put("error_code", e.errorCode());
            error.put("message", e.registryMessage());
            answer(exchange, e.httpStatus(), error.toString());
        } catch (SchemaParseException e) {
            answer(exchange, 422, "{\"error_code\":42201,\"message\":\"Invalid schema: " + e.getMessage()
                    .replace('"', '\'') + "\"}");
        } catch (RuntimeException e) {
            answer(exchange, 500, "{\"error_code\":50001,\"message\":\"" + e + "\"}");
        }
    }

    private JsonNode route(String method, String[] p, String body) throws IOException {
        // p[0] is "" (path starts with '/')
        if (p.length == 2 && p[1].equals("subjects") && method.equals("GET")) {
            ArrayNode subjects = json.createArrayNode();
            registry.listSubjects().forEach(subjects::add);
            return subjects;
        }
        if (p.length == 4 && p[1].equals("schemas") && p[2].equals("ids") && method.equals("GET")) {
            ObjectNode node = json.createObjectNode();
            node.put("schema", registry.getById(Integer.parseInt(p[3])).toString());
            return node;
        }
        if (p.length >= 3 && p[1].equals("subjects")) {
            String subject = URLDecoder.decode(p[2], StandardCharsets.UTF_8);
            if (p.length == 3 && method.equals("POST")) {
                return version(registry.lookup(subject, schemaOf(body)));
            }
            if (p.length == 3 && method.equals("DELETE")) {
                return ints(registry.deleteSubject(subject));
            }
            if (p.length == 4 && p[3].equals("versions") && method.equals("POST")) {
                ObjectNode node = json.createObjectNode();
                node.put("id", registry.register(subject, schemaOf(body)));
                return node;
            }
            if (p.length == 4 && p[3].equals("versions") && method.equals("GET")) {
                return ints(registry.listVersions(subject));
            }
            if (p.length == 5 && p[3].equals("versions") && method.equals("GET")) {
                return version(p[4].equals("latest") ? registry.getLatest(subject)
                        : registry.getVersion(subject, Integer.parseInt(p[4])));
            }
        }
        if (p.length == 6 && p[1].equals("compatibility") && method.equals("POST")) {
            String subject = URLDecoder.decode(p[3], StandardCharsets.UTF_8);
            ObjectNode node = json.createObjectNode();
            node.put("is_compatible", registry.testCompatibility(subject, schemaOf(body)));
            return node;
        }
        if (p.length == 2 && p[1].equals("config")) {
            return config(method, null, body);
        }
        if (p.length == 3 && p[1].equals("config")) {
            return config(method, URLDecoder.decode(p[2], StandardCharsets.UTF_8), body);
        }
        throw new SchemaRegistryException(404, 404, "HTTP 404 Not Found");
    }

    private JsonNode config(String method, String subject, String body) throws IOException {
        ObjectNode node = json.createObjectNode();
        if (method.equals("PUT")) {
            CompatibilityLevel level = CompatibilityLevel.parse(json.readTree(body).get("compatibility").asText());
            if (subject == null) {
                registry.setGlobalCompatibility(level);
            } else {
                registry.setCompatibility(subject, level);
            }
            node.put("compatibility", level.name());
            return node;
        }
        CompatibilityLevel level = subject == null ? registry.getGlobalCompatibility()
                : registry.getSubjectLevelCompatibility(subject);
        if (level == null) {
            throw new SchemaRegistryException(404, SchemaRegistryException.SUBJECT_LEVEL_COMPATIBILITY_NOT_CONFIGURED,
                    "Subject '" + subject + "' does not have subject-level compatibility configured");
        }
        node.put("compatibilityLevel", level.name());
        return node;
    }

    private Schema schemaOf(String body) throws IOException {
        return new Schema.Parser().parse(json.readTree(body).get("schema").asText());
    }

    private JsonNode version(SchemaVersion v) {
        ObjectNode node = json.createObjectNode();
        node.put("subject", v.subject());
        node.put("version", v.version());
        node.put("id", v.id());
        node.put("schema", v.schema().toString());
        return node;
    }

    private JsonNode ints(List<Integer> values) {
        ArrayNode array = json.createArrayNode();
        values.forEach(array::add);
        return array;
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", HttpSchemaRegistryClient.CONTENT_TYPE);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
