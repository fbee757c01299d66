// The customers bench:admin searches: names and addresses drawn from common first names,
// surnames and mail providers, so a common term ("an", "@mail") matches a large share of
// users and a surname a few hundred in a hundred thousand, as in a real customer base.
// Set-based SQL (one INSERT … SELECT per table): a million rows load in a minute or so.
import type { Queryable } from '../../apps/api/src/db/client.ts';

export const firstNames =
  `James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William
  Barbara Richard Susan Joseph Jessica Thomas Sarah Charles Karen Christopher Lisa Daniel Nancy
  Matthew Betty Anthony Margaret Mark Sandra Donald Ashley Steven Kimberly Paul Emily Andrew Donna
  Joshua Michelle Kenneth Carol Kevin Amanda Brian Dorothy George Melissa Timothy Deborah Ronald
  Stephanie Edward Rebecca Jason Sharon Jeffrey Laura Ryan Cynthia Jacob Kathleen Gary Amy Nicholas
  Angela Eric Shirley Jonathan Anna Stephen Brenda Larry Pamela Justin Emma Scott Nicole Brandon
  Helen Benjamin Samantha Samuel Katherine Gregory Christine Alexander Debra Frank Rachel Patrick
  Carolyn Raymond Janet Jack Catherine Dennis Maria Jerry Heather Tyler Diane Aaron Ruth Jose Julie
  Adam Olivia Nathan Joyce Henry Virginia Douglas Victoria Zachary Kelly Peter Lauren Kyle Christina
  Ethan Joan Walter Evelyn Noah Judith Jeremy Megan Christian Andrea Keith Cheryl Roger Hannah
  Terry Jacqueline Gerald Martha Harold Gloria Sean Teresa Austin Ann Carl Sara Arthur Madison
  Lawrence Frances Dylan Kathryn Jesse Janice Jordan Jean Bryan Abigail Billy Alice Joe Judy Bruce
  Sophia Gabriel Grace Logan Denise Albert Amber Willie Doris Alan Marilyn Juan Danielle Wayne
  Beverly Elijah Isabella Randy Theresa Roy Diana Vincent Natalie Ralph Brittany Eugene Charlotte
  Russell Marie Bobby Kayla Mason Alexis Philip Lori Louis Yuki Hiroshi Aiko Kenji Priya Arjun
  Ananya Rahul Wei Mei Jian Ling Fatima Omar Aisha Ahmed Lucas Sofia Mateo Valentina Leon Mia Finn
  Lena Elias Clara Nils Astrid Oskar Ingrid Pierre Camille Hugo Chloe Luca Giulia Marco Chiara`
    .split(/\s+/)
    .filter(Boolean);

export const surnames =
  `Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez
  Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris
  Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill
  Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Gomez Phillips Evans
  Turner Diaz Parker Cruz Edwards Collins Reyes Stewart Morris Morales Murphy Cook Rogers Gutierrez
  Ortiz Morgan Cooper Peterson Bailey Reed Kelly Howard Ramos Kim Cox Ward Richardson Watson Brooks
  Chavez Wood James Bennett Gray Mendoza Ruiz Hughes Price Alvarez Castillo Sanders Patel Myers Long
  Ross Foster Jimenez Powell Jenkins Perry Russell Sullivan Bell Coleman Butler Henderson Barnes
  Gonzales Fisher Vasquez Simmons Romero Jordan Patterson Alexander Hamilton Graham Reynolds Griffin
  Wallace Moreno West Cole Hayes Bryant Herrera Gibson Ellis Tran Medina Aguilar Stevens Murray Ford
  Castro Marshall Owens Harrison Fernandez McDonald Woods Washington Kennedy Wells Vargas Henry Chen
  Freeman Webb Tucker Guzman Burns Crawford Olson Simpson Porter Hunter Gordon Mendez Silva Shaw
  Snyder Mason Dixon Munoz Hunt Hicks Holmes Palmer Wagner Black Robertson Boyd Rose Stone Salazar
  Fox Warren Mills Meyer Rice Schmidt Garza Daniels Ferguson Nichols Stephens Soto Weaver Ryan
  Gardner Payne Grant Dunn Kelley Spencer Hawkins Arnold Pierce Vazquez Hansen Peters Santos Hart
  Bradley Knight Elliott Cunningham Duncan Armstrong Hudson Carroll Lane Riley Andrews Alvarado Ray
  Delgado Berry Perkins Hoffman Johnston Matthews Pena Richards Contreras Willis Carpenter Lawrence
  Sandoval Tanaka Suzuki Watanabe Yamamoto Nakamura Kobayashi Sato Ito Takahashi Kato Sharma Gupta
  Singh Kumar Reddy Wang Zhang Liu Huang Zhao Wu Khan Ali Hassan Ibrahim Mueller Schneider Fischer
  Weber Becker Schulz Dubois Moreau Laurent Rossi Russo Ferrari Esposito Bianchi Romano Novak Larsen
  Nielsen Jensen Andersson Johansson Karlsson Nilsson Kowalski Nowak Wojcik Silva Santos Oliveira`
    .split(/\s+/)
    .filter(Boolean);

/** Mail providers with rough shares: the big ones many times over. */
const mailDomains = [
  ...Array<string>(8).fill('gmail.com'),
  ...Array<string>(3).fill('yahoo.com'),
  ...Array<string>(3).fill('outlook.com'),
  ...Array<string>(2).fill('hotmail.com'),
  ...Array<string>(2).fill('mail.com'),
  'icloud.com',
  'proton.me',
  'gmx.de',
  'web.de',
];

/**
 * Inserts `userCount` customers, each with a wallet and its balance row, oldest first,
 * with time-ordered ids (UUIDv7, as the app makes them) one minute apart up to now.
 * Addresses are first.last, firstlast or f.last followed by a number, so they are unique.
 */
export async function seedCustomers(db: Queryable, userCount: number): Promise<void> {
  await db.query(
    `INSERT INTO users (id, username, email, country, role, password_hash, email_verified_at, created_at)
     SELECT (lpad(to_hex(created_ms), 12, '0') || '7' || substr(h, 1, 3) || '8' || substr(h, 4, 15))::uuid,
            first_name || ' ' || surname,
            CASE n % 3 WHEN 0 THEN lower(first_name) || '.' || lower(surname)
                       WHEN 1 THEN lower(first_name) || lower(surname)
                       ELSE lower(left(first_name, 1)) || '.' || lower(surname) END
              || n || '@' || ($4::text[])[1 + (n::bigint * 7 + hash_of_n) % cardinality($4::text[])],
            'US', 'customer', 'not-a-hash', to_timestamp(created_ms / 1000.0), to_timestamp(created_ms / 1000.0)
       FROM (SELECT n, md5(n::text) AS h, hashtext(n::text) & 2147483647 AS hash_of_n,
                    (extract(epoch FROM now()) * 1000)::bigint - ($1::bigint - n) * 60000 AS created_ms
               FROM generate_series(1, $1::int) AS n) numbered,
            LATERAL (SELECT ($2::text[])[1 + hash_of_n % cardinality($2::text[])] AS first_name,
                            ($3::text[])[1 + (hash_of_n / 1000) % cardinality($3::text[])] AS surname) names
      ORDER BY n`,
    [userCount, firstNames, surnames, mailDomains],
  );
  await db.query(
    `INSERT INTO accounts (id, number, kind, owner_user_id, currency, bucket_count, created_at)
     SELECT gen_random_uuid(), lpad((1000000000 + row_number() OVER (ORDER BY id))::text, 10, '0'),
            'customer', id, 'USD', 1, created_at
       FROM users ORDER BY id`,
  );
  await db.query(
    `INSERT INTO account_balances (account_id, bucket, balance_minor)
     SELECT id, 0, ((hashtext(id::text) & 2147483647) % 500000)::bigint FROM accounts WHERE kind = 'customer'`,
  );
}
