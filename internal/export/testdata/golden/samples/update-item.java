import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpRequest request = HttpRequest.newBuilder()
            .uri(URI.create("https://echo.invalid/v2/items/red%20shoe?tag=a%26b%3Dc&verbose=true"))
            .header("X-Request-Id", "req-7")
            .header("Authorization", "Bearer <token>")
            .header("Content-Type", "application/json")
            .header("Cookie", "session=s1")
            .method("PUT", HttpRequest.BodyPublishers.ofString("{\n  \"name\": \"Shoe\",\n  \"price\": 12.5,\n  \"tags\": [\n    \"red\",\n    \"it's\"\n  ],\n  \"stock\": null,\n  \"active\": false\n}"))
            .build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        System.out.println(response.body());
    }
}
