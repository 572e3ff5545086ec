package dev.ssdpulse.schemas.registry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * Client of the Confluent Schema Registry REST API (also Karapace, Redpanda, Apicurio's ccompat API and
 * ssdpulse's embedded registry) over {@code java.net.http} and Jackson.
 *
 * <p>Caches: id -> schema, (subject, schema) -> id and (subject, schema) -> version, so a serde in steady
 * state makes no HTTP call. Caches are bounded and thread-safe; ids and registered versions are immutable in
 * the registry, so cached entries never go stale (only {@link #deleteSubject} drops the subject's entries).
 *
 * <p>Several base URLs may be given; on a connection failure (any {@link IOException}) the next one is tried,
 * and the one that answered is tried first next time. An HTTP error answer is not retried: it is the
 * registry's decision.
 */
public final class HttpSchemaRegistryClient implements SchemaRegistryClient {
    static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    private final List<URI> baseUrls;
    private final Optional<String> authorizationHeader;
    private final Duration requestTimeout;
    private final HttpClient http;
    private final ObjectMapper json = new ObjectMapper();
    private final BoundedCache<Integer, Schema> schemaById;
    private final BoundedCache<SubjectSchema, Integer> idBySubjectSchema;
    private final BoundedCache<SubjectSchema, SchemaVersion> versionBySubjectSchema;
    private final AtomicInteger preferredUrl = new AtomicInteger();
    private final AtomicLong httpRequests = new AtomicLong();

    private record SubjectSchema(String subject, Schema schema) {}

    /**
     * @param commaSeparatedUrls one or more base URLs, e.g. {@code http://localhost:8081,http://backup:8081}
     */
    public HttpSchemaRegistryClient(String commaSeparatedUrls) {
        this(
                commaSeparatedUrls,
                Optional.empty(),
                Duration.ofMillis(RegistryClientConfig.DEFAULT_REQUEST_TIMEOUT_MS),
                RegistryClientConfig.DEFAULT_CACHE_CAPACITY);
    }

    /**
     * @param commaSeparatedUrls one or more base URLs
     * @param basicAuthUserInfo  {@code user:password} for HTTP basic auth, if any
     * @param requestTimeout     timeout of one HTTP request (and of connecting)
     * @param cacheCapacity      bound of each cache
     */
    public HttpSchemaRegistryClient(
            String commaSeparatedUrls, Optional<String> basicAuthUserInfo, Duration requestTimeout, int cacheCapacity) {
        this(commaSeparatedUrls, basicAuthUserInfo, requestTimeout, cacheCapacity, Optional.empty());
    }

    /**
     * As {@link #HttpSchemaRegistryClient(String, Optional, Duration, int)}, trusting the CAs of {@code tls} for https
     * URLs (the JVM's default CAs when empty). Hostnames are verified either way.
     */
    public HttpSchemaRegistryClient(
            String commaSeparatedUrls,
            Optional<String> basicAuthUserInfo,
            Duration requestTimeout,
            int cacheCapacity,
            Optional<SSLContext> tls) {
        this.baseUrls = parseUrls(commaSeparatedUrls);
        this.authorizationHeader = basicAuthUserInfo.map(HttpSchemaRegistryClient::basicAuth);
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(requestTimeout);
        tls.ifPresent(builder::sslContext);
        this.http = builder.build();
        this.schemaById = new BoundedCache<>(cacheCapacity);
        this.idBySubjectSchema = new BoundedCache<>(cacheCapacity);
        this.versionBySubjectSchema = new BoundedCache<>(cacheCapacity);
    }

    /**
     * A client from serde/client configs: {@code schema.registry.url} (required), {@code basic.auth.user.info}
     * (or {@code schema.registry.basic.auth.user.info}), {@code max.schemas.per.subject},
     * {@code schema.registry.request.timeout.ms}. See {@link RegistryClientConfig}.
     */
    public static HttpSchemaRegistryClient fromConfig(Map<String, ?> configs) {
        Object url = configs.get(RegistryClientConfig.URL);
        if (url == null || url.toString().isBlank()) {
            throw new IllegalArgumentException("missing config '" + RegistryClientConfig.URL
                    + "': the schema registry base URL(s), comma-separated");
        }
        Object source = configs.get(RegistryClientConfig.BASIC_AUTH_CREDENTIALS_SOURCE);
        if (source != null && !"USER_INFO".equals(source.toString())) {
            throw new IllegalArgumentException("config '" + RegistryClientConfig.BASIC_AUTH_CREDENTIALS_SOURCE
                    + "' = '" + source + "' is not supported; only USER_INFO (with "
                    + RegistryClientConfig.BASIC_AUTH_USER_INFO + ")");
        }
        Object userInfo = configs.get(RegistryClientConfig.BASIC_AUTH_USER_INFO);
        if (userInfo == null) {
            userInfo = configs.get(RegistryClientConfig.SCHEMA_REGISTRY_BASIC_AUTH_USER_INFO);
        }
        Optional<String> auth =
                userInfo == null || userInfo.toString().isEmpty() ? Optional.empty() : Optional.of(userInfo.toString());
        int timeoutMs = intConfig(
                configs, RegistryClientConfig.REQUEST_TIMEOUT_MS, RegistryClientConfig.DEFAULT_REQUEST_TIMEOUT_MS);
        int capacity =
                intConfig(configs, RegistryClientConfig.CACHE_CAPACITY, RegistryClientConfig.DEFAULT_CACHE_CAPACITY);
        return new HttpSchemaRegistryClient(
                url.toString(), auth, Duration.ofMillis(timeoutMs), capacity, trustFromConfig(configs));
    }

    /** The TLS context trusting {@code schema.registry.ssl.truststore.*}, when a truststore is configured. */
    static Optional<SSLContext> trustFromConfig(Map<String, ?> configs) {
        Object location = configs.get(RegistryClientConfig.SSL_TRUSTSTORE_LOCATION);
        if (location == null || location.toString().isBlank()) {
            return Optional.empty();
        }
        Object password = configs.get(RegistryClientConfig.SSL_TRUSTSTORE_PASSWORD);
        Object type = configs.get(RegistryClientConfig.SSL_TRUSTSTORE_TYPE);
        String storeType = type == null || type.toString().isBlank()
                ? "PKCS12"
                : type.toString().trim();
        Path file = Path.of(location.toString().trim());
        try (var in = Files.newInputStream(file)) {
            KeyStore store = KeyStore.getInstance(storeType);
            store.load(in, password == null ? null : password.toString().toCharArray());
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return Optional.of(context);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "config '" + RegistryClientConfig.SSL_TRUSTSTORE_LOCATION + "' = '" + file
                            + "': cannot read the " + storeType + " truststore (" + e.getMessage()
                            + "; is the file there, and '" + RegistryClientConfig.SSL_TRUSTSTORE_PASSWORD + "' right?)",
                    e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    "config '" + RegistryClientConfig.SSL_TRUSTSTORE_LOCATION + "' = '" + file + "': not a usable "
                            + storeType + " truststore: " + e.getMessage(),
                    e);
        }
    }

    /** HTTP requests sent so far (attempts on several URLs count once each). */
    public long httpRequestCount() {
        return httpRequests.get();
    }

    @Override
    public int register(String subject, Schema schema) {
        SubjectSchema key = new SubjectSchema(subject, schema);
        Integer cached = idBySubjectSchema.get(key);
        if (cached != null) {
            return cached;
        }
        JsonNode answer = send("POST", "/subjects/" + encode(subject) + "/versions", schemaBody(schema));
        int id = requiredInt(answer, "id");
        idBySubjectSchema.put(key, id);
        schemaById.put(id, schema);
        return id;
    }

    @Override
    public Schema getById(int id) {
        return schemaById.computeIfAbsent(id, i -> {
            JsonNode answer = send("GET", "/schemas/ids/" + i, null);
            requireAvro(answer, "schema id " + i);
            return parseSchema(requiredText(answer, "schema"), "schema id " + i);
        });
    }

    @Override
    public SchemaVersion lookup(String subject, Schema schema) {
        SubjectSchema key = new SubjectSchema(subject, schema);
        SchemaVersion cached = versionBySubjectSchema.get(key);
        if (cached != null) {
            return cached;
        }
        JsonNode answer = send("POST", "/subjects/" + encode(subject), schemaBody(schema));
        SchemaVersion version =
                new SchemaVersion(subject, requiredInt(answer, "version"), requiredInt(answer, "id"), schema);
        versionBySubjectSchema.put(key, version);
        idBySubjectSchema.put(key, version.id());
        schemaById.put(version.id(), schema);
        return version;
    }

    @Override
    public SchemaVersion getLatest(String subject) {
        return toVersion(send("GET", "/subjects/" + encode(subject) + "/versions/latest", null), subject);
    }

    @Override
    public SchemaVersion getVersion(String subject, int version) {
        return toVersion(send("GET", "/subjects/" + encode(subject) + "/versions/" + version, null), subject);
    }

    @Override
    public List<String> listSubjects() {
        JsonNode answer = send("GET", "/subjects", null);
        List<String> subjects = new ArrayList<>();
        requireArray(answer, "/subjects").forEach(n -> subjects.add(n.asText()));
        subjects.sort(null);
        return List.copyOf(subjects);
    }

    @Override
    public List<Integer> listVersions(String subject) {
        return intList(send("GET", "/subjects/" + encode(subject) + "/versions", null), "versions of " + subject);
    }

    @Override
    public boolean testCompatibility(String subject, Schema schema) {
        try {
            JsonNode answer =
                    send("POST", "/compatibility/subjects/" + encode(subject) + "/versions/latest", schemaBody(schema));
            JsonNode flag = answer.get("is_compatible");
            if (flag == null || !flag.isBoolean()) {
                throw malformed("is_compatible", answer);
            }
            return flag.booleanValue();
        } catch (SchemaRegistryException e) {
            // Older registries answer 404 for a subject without versions; anything is compatible with nothing.
            if (e.errorCode() == SchemaRegistryException.SUBJECT_NOT_FOUND
                    || e.errorCode() == SchemaRegistryException.VERSION_NOT_FOUND) {
                return true;
            }
            throw e;
        }
    }

    @Override
    public CompatibilityLevel getGlobalCompatibility() {
        return compatibilityOf(send("GET", "/config", null));
    }

    @Override
    public void setGlobalCompatibility(CompatibilityLevel level) {
        send("PUT", "/config", compatibilityBody(level));
    }

    @Override
    public CompatibilityLevel getCompatibility(String subject) {
        try {
            return compatibilityOf(send("GET", "/config/" + encode(subject), null));
        } catch (SchemaRegistryException e) {
            // 40408 (Confluent) or 40401 (others): no subject-level config, the global level applies.
            if (e.isNotFound()) {
                return getGlobalCompatibility();
            }
            throw e;
        }
    }

    @Override
    public void setCompatibility(String subject, CompatibilityLevel level) {
        send("PUT", "/config/" + encode(subject), compatibilityBody(level));
    }

    @Override
    public List<Integer> deleteSubject(String subject) {
        List<Integer> deleted =
                intList(send("DELETE", "/subjects/" + encode(subject), null), "deleted versions of " + subject);
        idBySubjectSchema.removeIf(k -> k.subject().equals(subject));
        versionBySubjectSchema.removeIf(k -> k.subject().equals(subject));
        return deleted;
    }

    private JsonNode send(String method, String path, String body) {
        int urlCount = baseUrls.size();
        int start = preferredUrl.get();
        List<String> failures = new ArrayList<>();
        IOException lastFailure = null;
        for (int attempt = 0; attempt < urlCount; attempt++) {
            int index = (start + attempt) % urlCount;
            URI uri =
                    baseUrls.get(index).resolve(baseUrls.get(index).getRawPath().replaceAll("/+$", "") + path);
            HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                    .timeout(requestTimeout)
                    .header("Accept", CONTENT_TYPE + ", application/json")
                    .method(
                            method,
                            body == null
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
            if (body != null) {
                request.header("Content-Type", CONTENT_TYPE);
            }
            authorizationHeader.ifPresent(h -> request.header("Authorization", h));
            HttpResponse<String> response;
            try {
                httpRequests.incrementAndGet();
                response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            } catch (IOException e) {
                failures.add(uri + ": " + e);
                lastFailure = e;
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SchemaRegistryException(
                        SchemaRegistryException.NO_HTTP_STATUS,
                        SchemaRegistryException.NO_ERROR_CODE,
                        "interrupted during " + method + " " + uri,
                        e);
            }
            preferredUrl.set(index);
            return interpret(method, uri, response);
        }
        // the last failure as the cause: callers tell a TLS handshake failure (an untrusted certificate) from a refusal
        throw new SchemaRegistryException(
                SchemaRegistryException.NO_HTTP_STATUS,
                SchemaRegistryException.NO_ERROR_CODE,
                "no schema registry reachable for " + method + " " + path + ": " + failures,
                lastFailure);
    }

    private JsonNode interpret(String method, URI uri, HttpResponse<String> response) {
        int status = response.statusCode();
        String text = response.body() == null ? "" : response.body();
        JsonNode node = null;
        try {
            node = text.isEmpty() ? null : json.readTree(text);
        } catch (JsonProcessingException e) {
            if (status / 100 == 2) {
                throw new SchemaRegistryException(
                        status,
                        SchemaRegistryException.NO_ERROR_CODE,
                        method + " " + uri + " answered with a body that is not JSON: " + abbreviate(text),
                        e);
            }
        }
        if (status / 100 == 2) {
            if (node == null) {
                throw new SchemaRegistryException(
                        status,
                        SchemaRegistryException.NO_ERROR_CODE,
                        method + " " + uri + " answered with an empty body");
            }
            return node;
        }
        int errorCode = SchemaRegistryException.NO_ERROR_CODE;
        String message = abbreviate(text);
        if (node != null && node.isObject()) {
            JsonNode code = node.get("error_code");
            if (code != null && code.canConvertToInt()) {
                errorCode = code.intValue();
            }
            JsonNode msg = node.get("message");
            if (msg != null) {
                message = msg.asText();
            }
        }
        throw new SchemaRegistryException(status, errorCode, method + " " + uri + ": " + message);
    }

    private String schemaBody(Schema schema) {
        ObjectNode body = json.createObjectNode();
        body.put("schema", schema.toString());
        return body.toString();
    }

    private String compatibilityBody(CompatibilityLevel level) {
        ObjectNode body = json.createObjectNode();
        body.put("compatibility", level.name());
        return body.toString();
    }

    private SchemaVersion toVersion(JsonNode answer, String subject) {
        requireAvro(answer, "subject " + subject);
        int id = requiredInt(answer, "id");
        Schema schema =
                schemaById.computeIfAbsent(id, i -> parseSchema(requiredText(answer, "schema"), "schema id " + i));
        JsonNode subjectNode = answer.get("subject");
        return new SchemaVersion(
                subjectNode == null ? subject : subjectNode.asText(), requiredInt(answer, "version"), id, schema);
    }

    private CompatibilityLevel compatibilityOf(JsonNode answer) {
        JsonNode level = answer.get("compatibilityLevel");
        if (level == null) {
            level = answer.get("compatibility");
        }
        if (level == null) {
            throw malformed("compatibilityLevel", answer);
        }
        return CompatibilityLevel.parse(level.asText());
    }

    private static void requireAvro(JsonNode answer, String what) {
        JsonNode type = answer.get("schemaType");
        if (type != null && !"AVRO".equalsIgnoreCase(type.asText())) {
            throw new SchemaRegistryException(
                    200,
                    SchemaRegistryException.INVALID_SCHEMA,
                    what + " is a " + type.asText() + " schema; ssdpulse reads only AVRO schemas");
        }
    }

    private static Schema parseSchema(String text, String what) {
        try {
            return new Schema.Parser().parse(text);
        } catch (SchemaParseException e) {
            throw new SchemaRegistryException(
                    200,
                    SchemaRegistryException.INVALID_SCHEMA,
                    "registry returned an Avro schema for " + what + " that does not parse: " + e.getMessage(),
                    e);
        }
    }

    private static int requiredInt(JsonNode answer, String field) {
        JsonNode node = answer.get(field);
        if (node == null || !node.canConvertToInt()) {
            throw malformed(field, answer);
        }
        return node.intValue();
    }

    private static String requiredText(JsonNode answer, String field) {
        JsonNode node = answer.get(field);
        if (node == null || !node.isTextual()) {
            throw malformed(field, answer);
        }
        return node.textValue();
    }

    private static JsonNode requireArray(JsonNode answer, String what) {
        if (!answer.isArray()) {
            throw new SchemaRegistryException(
                    200,
                    SchemaRegistryException.NO_ERROR_CODE,
                    "expected a JSON array for " + what + ", got " + abbreviate(answer.toString()));
        }
        return answer;
    }

    private static List<Integer> intList(JsonNode answer, String what) {
        List<Integer> values = new ArrayList<>();
        for (JsonNode n : requireArray(answer, what)) {
            if (!n.canConvertToInt()) {
                throw new SchemaRegistryException(
                        200,
                        SchemaRegistryException.NO_ERROR_CODE,
                        "expected integers for " + what + ", got " + abbreviate(answer.toString()));
            }
            values.add(n.intValue());
        }
        return List.copyOf(values);
    }

    private static SchemaRegistryException malformed(String field, JsonNode answer) {
        return new SchemaRegistryException(
                200,
                SchemaRegistryException.NO_ERROR_CODE,
                "registry answer lacks a valid '" + field + "': " + abbreviate(answer.toString()));
    }

    private static String abbreviate(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }

    private static String encode(String pathSegment) {
        return URLEncoder.encode(pathSegment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String basicAuth(String userInfo) {
        if (!userInfo.contains(":")) {
            throw new IllegalArgumentException("basic auth user info must be 'user:password'");
        }
        return "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
    }

    private static List<URI> parseUrls(String commaSeparatedUrls) {
        Objects.requireNonNull(commaSeparatedUrls, "registry URLs");
        List<URI> urls = new ArrayList<>();
        for (String raw : commaSeparatedUrls.split(",")) {
            String url = raw.trim();
            if (url.isEmpty()) {
                continue;
            }
            URI uri;
            try {
                uri = URI.create(url);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("invalid schema registry URL '" + url + "': " + e.getMessage(), e);
            }
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new IllegalArgumentException(
                        "invalid schema registry URL '" + url + "': expected http(s)://host[:port][/path]");
            }
            urls.add(uri);
        }
        if (urls.isEmpty()) {
            throw new IllegalArgumentException("no schema registry URL in '" + commaSeparatedUrls + "'");
        }
        return List.copyOf(urls);
    }

    private static int intConfig(Map<String, ?> configs, String key, int defaultValue) {
        Object value = configs.get(key);
        if (value == null) {
            return defaultValue;
        }
        try {
            return value instanceof Number n
                    ? n.intValue()
                    : Integer.parseInt(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("config '" + key + "' must be an integer, got '" + value + "'");
        }
    }

    @Override
    public String toString() {
        return "HttpSchemaRegistryClient" + Arrays.toString(baseUrls.toArray());
    }
}
