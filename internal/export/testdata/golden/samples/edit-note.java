import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpRequest request = HttpRequest.newBuilder()
            .uri(URI.create("https://echo.invalid/v2/notes/%3CnoteId%3E?api_key=%3Capi-key%3E"))
            .header("Content-Type", "text/plain")
            .method("PATCH", HttpRequest.BodyPublishers.ofString("it's \"done\" \\ $HOME #{x}\nline 2"))
            .build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        System.out.println(response.body());
    }
}
