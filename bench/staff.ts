// Staff calls for the benches that drive a running station: sign in, then JSON calls with the token.

export interface StaffAccount {
  username: string;
  password: string;
}

/** Signs in at the station's `origin`; returns the staff token, or throws with the answer's status. */
export async function signIn(origin: string, account: StaffAccount): Promise<string> {
  const response = await fetch(`${origin}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  if (!response.ok) throw new Error(`staff sign-in answered ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

/** One staff API call with a JSON body (if any); returns the parsed answer, or throws with its status and text. */
export async function staffCall<T>(
  origin: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}
