<?php

$curl = curl_init();

curl_setopt_array($curl, [
  CURLOPT_URL => 'https://echo.invalid/v2/config',
  CURLOPT_RETURNTRANSFER => true,
  CURLOPT_CUSTOMREQUEST => 'PUT',
  CURLOPT_POSTFIELDS => '{
  "name": "web",
  "replicas": 2
}',
  CURLOPT_HTTPHEADER => [
    'Content-Type: application/yaml',
  ],
]);

$response = curl_exec($curl);
$err = curl_error($curl);
curl_close($curl);

if ($err) {
  echo 'cURL Error #:' . $err;
} else {
  echo $response;
}
