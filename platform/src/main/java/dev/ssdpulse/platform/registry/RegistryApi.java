package dev.ssdpulse.platform.registry;

import dev.ssdpulse.schemas.registry.CompatibilityLevel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Confluent Schema Registry REST API over a {@link SchemaRegistry}, independent of the HTTP
 * server: a request (method, raw path, raw query, body) becomes a status and a JSON body.
 */
public final class RegistryApi {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SchemaRegistry registry;

    public RegistryApi(SchemaRegistry registry) {
        this.registry = registry;
    }

    /** A response: HTTP status and JSON body. */
    public record Response(int status, JsonNode body) {
    }

    public Response handle(String method, String rawPath, String rawQuery, byte[] body) {
        try {
            return route(method.toUpperCase(java.util.Locale.ROOT), segments(rawPath), query(rawQuery), body);
        } catch (RegistryException e) {
            return error(e.httpStatus(), e.errorCode(), e.getMessage());
        } catch (RuntimeException e) {
            return error(500, 500, "Internal error: " + e);
        }
    }

    private Response route(String method, List<String> path, Map<String, String> query, byte[] body) {
        int n = path.size();
        boolean deleted = flag(query, "deleted");
        if (n == 0) {
            return method.equals("GET") ? ok(JSON.createObjectNode()) : methodNotAllowed(method);
        }
        switch (path.get(0)) {
            case "subjects":
                if (n == 1) {
                    return method.equals("GET") ? ok(strings(registry.subjects(deleted))) : methodNotAllowed(method);
                }
                String subject = path.get(1);
                if (n == 2) {
                    switch (method) {
                        case "POST": {
                            JsonNode req = json(body);
                            return ok(entryNode(registry.lookup(subject, text(req, "schema"), text(req, "schemaType"), deleted)));
                        }
                        case "DELETE":
                            if (flag(query, "permanent")) {
                                return error(422, 42205, "Permanent deletion is not supported by the ssdpulse embedded "
                                        + "registry: it soft-deletes only, so schema ids are never reused");
                            }
                            return ok(ints(registry.deleteSubject(subject)));
                        default:
                            return methodNotAllowed(method);
                    }
                }
                if (!path.get(2).equals("versions")) {
                    return notFound();
                }
                if (n == 3) {
                    switch (method) {
                        case "GET":
                            return ok(ints(registry.versions(subject, deleted)));
                        case "POST": {
                            JsonNode req = json(body);
                            rejectReferences(req);
                            ObjectNode out = JSON.createObjectNode();
                            out.put("id", registry.register(subject, text(req, "schema"), text(req, "schemaType")));
                            return ok(out);
                        }
                        default:
                            return methodNotAllowed(method);
                    }
                }
                VersionSpec version = VersionSpec.parse(path.get(3));
                if (n == 4 && method.equals("GET")) {
                    return ok(entryNode(registry.version(subject, version, deleted)));
                }
                if (n == 5 && path.get(4).equals("schema") && method.equals("GET")) {
                    return rawSchema(registry.version(subject, version, deleted).schema());
                }
                return n <= 5 ? methodNotAllowed(method) : notFound();
            case "schemas":
                if (n >= 3 && path.get(1).equals("ids") && method.equals("GET")) {
                    int id = parseId(path.get(2));
                    if (n == 3) {
                        ObjectNode out = JSON.createObjectNode();
                        out.put("schema", registry.schemaById(id));
                        return ok(out);
                    }
                    if (n == 4 && path.get(3).equals("schema")) {
                        return rawSchema(registry.schemaById(id));
                    }
                    if (n == 4 && path.get(3).equals("versions")) {
                        ArrayNode out = JSON.createArrayNode();
                        for (SchemaEntry e : registry.usesOfId(id, deleted)) {
                            out.addObject().put("subject", e.subject()).put("version", e.version());
                        }
                        return ok(out);
                    }
                    if (n == 4 && path.get(3).equals("subjects")) {
                        return ok(strings(registry.usesOfId(id, deleted).stream().map(SchemaEntry::subject).distinct().toList()));
                    }
                }
                if (n == 2 && path.get(1).equals("types") && method.equals("GET")) {
                    return ok(strings(List.of("AVRO")));
                }
                return notFound();
            case "compatibility":
                if (method.equals("POST") && n >= 4 && path.get(1).equals("subjects") && path.get(3).equals("versions")) {
                    VersionSpec against = n == 4 ? VersionSpec.LATEST : n == 5 ? VersionSpec.parse(path.get(4)) : null;
                    if (against == null) {
                        return notFound();
                    }
                    JsonNode req = json(body);
                    SchemaRegistry.CompatibilityResult result = registry.testCompatibility(path.get(2), against,
                            text(req, "schema"), text(req, "schemaType"));
                    ObjectNode out = JSON.createObjectNode();
                    out.put("is_compatible", result.compatible());
                    if (flag(query, "verbose")) {
                        out.set("messages", strings(result.messages()));
                    }
                    return ok(out);
                }
                return method.equals("POST") ? notFound() : methodNotAllowed(method);
            case "config":
                return config(method, path, query, body);
            default:
                return notFound();
        }
    }

    private Response config(String method, List<String> path, Map<String, String> query, byte[] body) {
        if (path.size() == 1) {
            switch (method) {
                case "GET":
                    return ok(levelNode("compatibilityLevel", registry.globalLevel()));
                case "PUT": {
                    CompatibilityLevel level = RegistryException.compatibilityLevel(text(json(body), "compatibility"));
                    registry.setGlobalLevel(level);
                    return ok(levelNode("compatibility", level));
                }
                default:
                    return methodNotAllowed(method);
            }
        }
        if (path.size() != 2) {
            return notFound();
        }
        String subject = path.get(1);
        switch (method) {
            case "GET": {
                CompatibilityLevel level = flag(query, "defaultToGlobal")
                        ? registry.effectiveLevel(subject)
                        : registry.subjectLevel(subject).orElseThrow(() -> RegistryException.subjectLevelConfigNotFound(subject));
                return ok(levelNode("compatibilityLevel", level));
            }
            case "PUT": {
                CompatibilityLevel level = RegistryException.compatibilityLevel(text(json(body), "compatibility"));
                registry.setSubjectLevel(subject, level);
                return ok(levelNode("compatibility", level));
            }
            case "DELETE":
                return ok(levelNode("compatibilityLevel", registry.deleteSubjectLevel(subject)));
            default:
                return methodNotAllowed(method);
        }
    }

    private static void rejectReferences(JsonNode req) {
        JsonNode refs = req.get("references");
        if (refs != null && refs.isArray() && refs.size() > 0) {
            throw RegistryException.invalidSchema("schema references are not supported by the ssdpulse embedded registry");
        }
    }

    private static int parseId(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new RegistryException(404, 40403, "Schema " + text + " not found");
        }
    }

    private static ObjectNode entryNode(SchemaEntry e) {
        ObjectNode out = JSON.createObjectNode();
        out.put("subject", e.subject());
        out.put("version", e.version());
        out.put("id", e.id());
        out.put("schema", e.schema());
        return out;
    }

    private static ObjectNode levelNode(String field, CompatibilityLevel level) {
        ObjectNode out = JSON.createObjectNode();
        out.put(field, level.name());
        return out;
    }

    private static ArrayNode strings(List<String> values) {
        ArrayNode out = JSON.createArrayNode();
        values.forEach(out::add);
        return out;
    }

    private static ArrayNode ints(List<Integer> values) {
        ArrayNode out = JSON.createArrayNode();
        values.forEach(out::add);
        return out;
    }

    private static Response rawSchema(String schema) {
        try {
            return ok(JSON.readTree(schema));
        } catch (IOException e) {
            throw new IllegalStateException("stored schema is not JSON: " + schema, e);
        }
    }

    private static JsonNode json(byte[] body) {
        if (body == null || body.length == 0) {
            throw new RegistryException(400, 400, "The request body is empty; expected a JSON object");
        }
        try {
            JsonNode node = JSON.readTree(body);
            if (node == null || !node.isObject()) {
                throw new RegistryException(400, 400, "The request body must be a JSON object");
            }
            return node;
        } catch (IOException e) {
            throw new RegistryException(400, 400, "The request body is not valid JSON: " + e.getMessage());
        }
    }

    private static String text(JsonNode req, String field) {
        JsonNode f = req.get(field);
        if (f == null || f.isNull()) {
            return null;
        }
        if (!f.isTextual()) {
            throw new RegistryException(422, 42201, "Field '" + field + "' must be a string");
        }
        return f.asText();
    }

    private static boolean flag(Map<String, String> query, String name) {
        return "true".equalsIgnoreCase(query.get(name));
    }

    private static Response ok(JsonNode body) {
        return new Response(200, body);
    }

    private static Response notFound() {
        return error(404, 404, "HTTP 404 Not Found");
    }

    private static Response methodNotAllowed(String method) {
        return error(405, 405, "HTTP 405 Method " + method + " Not Allowed");
    }

    static Response error(int status, int code, String message) {
        ObjectNode out = JSON.createObjectNode();
        out.put("error_code", code);
        out.put("message", message);
        return new Response(status, out);
    }

    /** Path segments, percent-decoded one by one so a subject may contain an encoded '/'. */
    static List<String> segments(String rawPath) {
        List<String> out = new ArrayList<>();
        if (rawPath == null) {
            return out;
        }
        for (String s : rawPath.split("/")) {
            if (!s.isEmpty()) {
                out.add(URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    static Map<String, String> query(String rawQuery) {
        Map<String, String> out = new HashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return out;
        }
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "true" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            out.put(key, value);
        }
        return out;
    }
}
