import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpRequest request = HttpRequest.newBuilder()
            .uri(URI.create("https://echo.invalid/v2/config"))
            .header("Content-Type", "application/yaml")
            .method("PUT", HttpRequest.BodyPublishers.ofString("{\n  \"name\": \"web\",\n  \"replicas\": 2\n}"))
            .build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        System.out.println(response.body());
    }
}
