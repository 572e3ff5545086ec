package dev.ssdpulse.platform.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ssdpulse.schemas.registry.CompatibilityLevel;
import dev.ssdpulse.schemas.registry.SchemaRegistryException;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Confluent Schema Registry REST API over a {@link SchemaRegistry}: Javalin routes answering with
 * Confluent's JSON bodies, status codes and error codes.
 */
final class RegistryApi {
    private static final Logger log = LoggerFactory.getLogger(RegistryApi.class);
    static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SchemaRegistry registry;

    RegistryApi(SchemaRegistry registry) {
        this.registry = registry;
    }

    /** Every endpoint and error answer of the registry. */
    void routes(RoutesConfig r) {
        r.get("/", ctx -> ok(ctx, JSON.createObjectNode()));
        r.get("/subjects", ctx -> ok(ctx, strings(registry.subjects(flag(ctx, "deleted")))));
        r.post("/subjects/{subject}", ctx -> {
            JsonNode req = json(ctx);
            ok(
                    ctx,
                    entryNode(registry.lookup(
                            subject(ctx), text(req, "schema"), text(req, "schemaType"), flag(ctx, "deleted"))));
        });
        r.delete("/subjects/{subject}", ctx -> {
            if (flag(ctx, "permanent")) {
                throw new SchemaRegistryException(
                        422,
                        SchemaRegistryException.OPERATION_NOT_PERMITTED,
                        "Permanent deletion is not supported by the ssdpulse "
                                + "embedded registry: it soft-deletes only, so schema ids are never reused");
            }
            ok(ctx, ints(registry.deleteSubject(subject(ctx))));
        });
        r.get(
                "/subjects/{subject}/versions",
                ctx -> ok(ctx, ints(registry.versions(subject(ctx), flag(ctx, "deleted")))));
        r.post("/subjects/{subject}/versions", ctx -> {
            JsonNode req = json(ctx);
            rejectReferences(req);
            ObjectNode out = JSON.createObjectNode();
            out.put("id", registry.register(subject(ctx), text(req, "schema"), text(req, "schemaType")));
            ok(ctx, out);
        });
        r.get(
                "/subjects/{subject}/versions/{version}",
                ctx -> ok(
                        ctx,
                        entryNode(registry.version(
                                subject(ctx), VersionSpec.parse(ctx.pathParam("version")), flag(ctx, "deleted")))));
        r.get(
                "/subjects/{subject}/versions/{version}/schema",
                ctx -> rawSchema(
                        ctx,
                        registry.version(
                                        subject(ctx), VersionSpec.parse(ctx.pathParam("version")), flag(ctx, "deleted"))
                                .schema()));
        r.get("/schemas/ids/{id}", ctx -> {
            ObjectNode out = JSON.createObjectNode();
            out.put("schema", registry.schemaById(id(ctx)));
            ok(ctx, out);
        });
        r.get("/schemas/ids/{id}/schema", ctx -> rawSchema(ctx, registry.schemaById(id(ctx))));
        r.get("/schemas/ids/{id}/versions", ctx -> {
            ArrayNode out = JSON.createArrayNode();
            for (SchemaEntry e : registry.usesOfId(id(ctx), flag(ctx, "deleted"))) {
                out.addObject().put("subject", e.subject()).put("version", e.version());
            }
            ok(ctx, out);
        });
        r.get(
                "/schemas/ids/{id}/subjects",
                ctx -> ok(
                        ctx,
                        strings(registry.usesOfId(id(ctx), flag(ctx, "deleted")).stream()
                                .map(SchemaEntry::subject)
                                .distinct()
                                .toList())));
        r.get("/schemas/types", ctx -> ok(ctx, strings(List.of("AVRO"))));
        r.post("/compatibility/subjects/{subject}/versions", ctx -> compatibility(ctx, VersionSpec.LATEST));
        r.post(
                "/compatibility/subjects/{subject}/versions/{version}",
                ctx -> compatibility(ctx, VersionSpec.parse(ctx.pathParam("version"))));
        r.get("/config", ctx -> ok(ctx, levelNode("compatibilityLevel", registry.globalLevel())));
        r.put("/config", ctx -> {
            CompatibilityLevel level = CompatibilityLevel.parse(text(json(ctx), "compatibility"));
            registry.setGlobalLevel(level);
            ok(ctx, levelNode("compatibility", level));
        });
        r.get("/config/{subject}", ctx -> {
            String subject = subject(ctx);
            CompatibilityLevel level = flag(ctx, "defaultToGlobal")
                    ? registry.effectiveLevel(subject)
                    : registry.subjectLevel(subject)
                            .orElseThrow(() -> SchemaRegistryException.subjectLevelCompatibilityNotConfigured(subject));
            ok(ctx, levelNode("compatibilityLevel", level));
        });
        r.put("/config/{subject}", ctx -> {
            CompatibilityLevel level = CompatibilityLevel.parse(text(json(ctx), "compatibility"));
            registry.setSubjectLevel(subject(ctx), level);
            ok(ctx, levelNode("compatibility", level));
        });
        r.delete(
                "/config/{subject}",
                ctx -> ok(ctx, levelNode("compatibilityLevel", registry.deleteSubjectLevel(subject(ctx)))));

        r.exception(
                SchemaRegistryException.class,
                (e, ctx) -> error(ctx, e.httpStatus(), e.errorCode(), e.registryMessage()));
        // Javalin's own 404 (no route) and 405 (route for another method), worded as Confluent's registry does
        r.exception(
                HttpResponseException.class,
                (e, ctx) -> error(
                        ctx,
                        e.getStatus(),
                        e.getStatus(),
                        e.getStatus() == 405
                                ? "HTTP 405 Method " + ctx.req().getMethod() + " Not Allowed"
                                : "HTTP " + e.getStatus() + " "
                                        + (e.getStatus() == 404 ? "Not Found" : e.getMessage())));
        r.exception(Exception.class, (e, ctx) -> {
            log.warn("schema registry request {} {} failed", ctx.req().getMethod(), ctx.path(), e);
            error(
                    ctx,
                    SchemaRegistryException.INTERNAL_SERVER_ERROR,
                    SchemaRegistryException.INTERNAL_SERVER_ERROR,
                    "Internal error: " + e);
        });
    }

    private void compatibility(Context ctx, VersionSpec against) {
        JsonNode req = json(ctx);
        SchemaRegistry.CompatibilityResult result =
                registry.testCompatibility(subject(ctx), against, text(req, "schema"), text(req, "schemaType"));
        ObjectNode out = JSON.createObjectNode();
        out.put("is_compatible", result.compatible());
        if (flag(ctx, "verbose")) {
            out.set("messages", strings(result.messages()));
        }
        ok(ctx, out);
    }

    private static String subject(Context ctx) {
        return ctx.pathParam("subject");
    }

    private static int id(Context ctx) {
        String text = ctx.pathParam("id");
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new SchemaRegistryException(
                    404, SchemaRegistryException.SCHEMA_NOT_FOUND, "Schema " + text + " not found");
        }
    }

    private static void rejectReferences(JsonNode req) {
        JsonNode refs = req.get("references");
        if (refs != null && refs.isArray() && refs.size() > 0) {
            throw SchemaRegistryException.invalidSchema(
                    "schema references are not supported by the ssdpulse embedded registry");
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

    private static void rawSchema(Context ctx, String schema) {
        try {
            ok(ctx, JSON.readTree(schema));
        } catch (IOException e) {
            throw new IllegalStateException("stored schema is not JSON: " + schema, e);
        }
    }

    private static JsonNode json(Context ctx) {
        byte[] body = ctx.bodyAsBytes();
        if (body.length == 0) {
            throw new SchemaRegistryException(
                    400, SchemaRegistryException.BAD_REQUEST, "The request body is empty; expected a JSON object");
        }
        try {
            JsonNode node = JSON.readTree(body);
            if (node == null || !node.isObject()) {
                throw new SchemaRegistryException(
                        400, SchemaRegistryException.BAD_REQUEST, "The request body must be a JSON object");
            }
            return node;
        } catch (IOException e) {
            throw new SchemaRegistryException(
                    400, SchemaRegistryException.BAD_REQUEST, "The request body is not valid JSON: " + e.getMessage());
        }
    }

    private static String text(JsonNode req, String field) {
        JsonNode f = req.get(field);
        if (f == null || f.isNull()) {
            return null;
        }
        if (!f.isTextual()) {
            throw new SchemaRegistryException(
                    422, SchemaRegistryException.INVALID_SCHEMA, "Field '" + field + "' must be a string");
        }
        return f.asText();
    }

    /** "?deleted=true", or a bare "?deleted" as Confluent's registry takes it. */
    private static boolean flag(Context ctx, String name) {
        String value = ctx.queryParam(name);
        return value != null && (value.isEmpty() || value.equalsIgnoreCase("true"));
    }

    private static void ok(Context ctx, JsonNode body) {
        send(ctx, 200, body);
    }

    private static void error(Context ctx, int status, int code, String message) {
        ObjectNode out = JSON.createObjectNode();
        out.put("error_code", code);
        out.put("message", message);
        send(ctx, status, out);
    }

    private static void send(Context ctx, int status, JsonNode body) {
        byte[] bytes;
        try {
            bytes = JSON.writeValueAsBytes(body);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
        ctx.status(status);
        ctx.res().setContentType(CONTENT_TYPE);
        ctx.result(bytes);
    }
}
