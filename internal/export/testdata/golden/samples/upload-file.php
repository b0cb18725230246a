<?php

$curl = curl_init();

curl_setopt_array($curl, [
  CURLOPT_URL => 'https://echo.invalid/v2/uploads',
  CURLOPT_RETURNTRANSFER => true,
  CURLOPT_CUSTOMREQUEST => 'POST',
  CURLOPT_POSTFIELDS => [
    'title' => 'report',
    'file' => new CURLFile('file.bin'),
  ],
  CURLOPT_HTTPHEADER => [
    'X-API-Key: <api-key>',
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
