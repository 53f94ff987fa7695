package dev.racelint.analyzer.effects;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.StaticJavaParser;
import com.github.javaparser.ast.expr.MethodCallExpr;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A bucket created only when an existence read of that same bucket decides (SDK v1, whose jar the
 * fixtures cannot compile against, so told here on parsed source), and a v1 client built locally,
 * which is no call to the service.
 */
class CreateIfAbsentTest {

    private static final String S3_V1 = "com.amazonaws.services.s3.AmazonS3";
    private final ApiCatalogue catalogue = ApiCatalogue.builtIn();

    @Test
    void aCreateBehindTheExistenceReadOfItsBucketIsGuarded() {
        assertThat(guard("if (!s3.doesBucketExistV2(bucket)) { s3.createBucket(bucket); }"))
                .isEqualTo("s3.doesBucketExistV2(bucket)");
        assertThat(guard("if (!s3.doesBucketExist(bucket)) s3.createBucket(bucket);"))
                .isEqualTo("s3.doesBucketExist(bucket)");
    }

    @Test
    void anotherBucketAnotherClientOrNoReadLeaveTheCreateUnguarded() {
        assertThat(guard("if (!s3.doesBucketExistV2(shared)) { s3.createBucket(bucket); }")).as("another bucket").isNull();
        assertThat(guard("if (!backup.doesBucketExistV2(bucket)) { s3.createBucket(bucket); }")).as("another client").isNull();
        assertThat(guard("if (bucket.length() < 64) { s3.createBucket(bucket); }")).as("no read").isNull();
        assertThat(guard("if (!s3.doesBucketExistV2(bucket)) { log(bucket); } else { s3.createBucket(bucket); }"))
                .as("the other branch").isNull();
        assertThat(guard("s3.createBucket(bucket);")).as("no condition").isNull();
    }

    @Test
    void aLocallyBuiltV1ClientIsNoServiceCall() {
        assertThat(catalogue.match(List.of("com.amazonaws.services.s3.AmazonS3Client"), List.of("builder",
                "withEndpointConfiguration", "withCredentials", "disableChunkedEncoding", "build"))).isNull();
        assertThat(catalogue.match(List.of("com.amazonaws.services.s3.AmazonS3ClientBuilder"),
                List.of("standard", "withRegion", "build"))).isNull();
        assertThat(catalogue.match(List.of(S3_V1), List.of("createBucket"))).isNotNull();
        assertThat(catalogue.match(List.of(S3_V1), List.of("enableRequesterPays"))).as("an action, not a builder setting")
                .isNotNull();
    }

    private String guard(String body) {
        MethodCallExpr create = StaticJavaParser.parseBlock("{" + body + "}").findAll(MethodCallExpr.class).stream()
                .filter(c -> c.getNameAsString().equals("createBucket")).findFirst().orElseThrow();
        ApiCatalogue.Match match = catalogue.match(List.of(S3_V1), List.of("createBucket"));
        return catalogue.effectAt(match, create).existenceGuard();
    }
}
